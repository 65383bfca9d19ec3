import { bigcommercePlatform } from './bigcommerce';
import { shopifyPlatform } from './shopify';
import type {
  StoreClient,
  StoreConnection,
  StorePlatformType,
  StoreWebhookDelivery,
  StoreWebhookVerdict,
} from './store-platform';
import type { StoreHttpDeps } from './transport/store-http';
import { woocommercePlatform } from './woocommerce';

/** Every store platform by its workflow and credentials type. */
export const STORE_PLATFORMS = {
  shopify: shopifyPlatform,
  woocommerce: woocommercePlatform,
  bigcommerce: bigcommercePlatform,
} as const;

export function isStorePlatformType(type: string): type is StorePlatformType {
  return Object.prototype.hasOwnProperty.call(STORE_PLATFORMS, type);
}

/** A client for the store a connection names. */
export function connectStore(connection: StoreConnection, deps: StoreHttpDeps): StoreClient {
  switch (connection.platform) {
    case 'shopify':
      return shopifyPlatform.connect(connection, deps);
    case 'woocommerce':
      return woocommercePlatform.connect(connection, deps);
    case 'bigcommerce':
      return bigcommercePlatform.connect(connection, deps);
  }
}

/** Checks a webhook delivery against the connection's secrets (pure). */
export function verifyStoreWebhook(
  connection: StoreConnection,
  delivery: StoreWebhookDelivery,
): StoreWebhookVerdict {
  switch (connection.platform) {
    case 'shopify':
      return shopifyPlatform.verifyWebhook(connection, delivery);
    case 'woocommerce':
      return woocommercePlatform.verifyWebhook(connection, delivery);
    case 'bigcommerce':
      return bigcommercePlatform.verifyWebhook(connection, delivery);
  }
}
