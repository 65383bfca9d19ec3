import type { StorePlatform, WooCommerceConnection } from '../store-platform';
import { WooCommerceClient } from './woocommerce-client';
import { verifyWooCommerceWebhook } from './woocommerce-webhooks';

export const woocommercePlatform: StorePlatform<WooCommerceConnection> = {
  type: 'woocommerce',
  connect: (connection, deps) => new WooCommerceClient(connection, deps),
  verifyWebhook: verifyWooCommerceWebhook,
};

export { WooCommerceClient } from './woocommerce-client';
