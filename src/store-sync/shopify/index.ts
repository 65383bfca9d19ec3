import type { ShopifyConnection, StorePlatform } from '../store-platform';
import { ShopifyClient } from './shopify-client';
import { verifyShopifyWebhook } from './shopify-webhooks';

export const shopifyPlatform: StorePlatform<ShopifyConnection> = {
  type: 'shopify',
  connect: (connection, deps) => new ShopifyClient(connection, deps),
  verifyWebhook: verifyShopifyWebhook,
};

export { ShopifyClient } from './shopify-client';
export { SHOPIFY_API_VERSION } from './shopify-constants';
