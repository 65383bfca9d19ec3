import type { BigCommerceConnection, StorePlatform } from '../store-platform';
import { BigCommerceClient } from './bigcommerce-client';
import { verifyBigCommerceWebhook } from './bigcommerce-webhooks';

export const bigcommercePlatform: StorePlatform<BigCommerceConnection> = {
  type: 'bigcommerce',
  connect: (connection, deps) => new BigCommerceClient(connection, deps),
  verifyWebhook: verifyBigCommerceWebhook,
};

export { BigCommerceClient } from './bigcommerce-client';
export { BIGCOMMERCE_HOOK_HEADER } from './bigcommerce-webhooks';
