import { bigcommerceBaseUrl, shopifyBaseUrl } from '../store-base-url';
import type { StoreConnection, StorePlatformType } from '../store-platform';
import { DEFAULT_BACKFILL_DAYS } from './import-cursor';

/** A store workflow's credentials record, opened (src/credentials, types shopify...). */
export interface StoreCredentials {
  readonly type: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly secrets: Readonly<Record<string, string>>;
}

/** What the operator decides about where stores are reached (config). */
export interface StoreReach {
  /** STORE_SYNC_ALLOWED_HOSTS. */
  readonly allowedHosts: readonly string[];
  /** BIGCOMMERCE_API_ROOT. */
  readonly bigcommerceApiRoot: string;
}

/** The workflow's sync options, from its credentials' parameters. */
export interface StoreSyncOptions {
  /** Days of orders the first run reads. */
  readonly backfillDays: number;
  /** WooCommerce: order notes shown (and mailed) to the customer. */
  readonly customerNotes: boolean;
  /** WooCommerce: mark the order completed once all its parcels are delivered. */
  readonly completeOnDelivery: boolean;
  /** BigCommerce: the order status set once all parcels are delivered; null: none. */
  readonly statusIdOnDelivery: number | null;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * How to reach the store the credentials name, or what they lack (said in the run's errors):
 * Shopify a shop domain and an access token or a client id and secret; WooCommerce the store's
 * address, consumer key and secret; BigCommerce a store hash and a token. The webhook secrets
 * may be missing (deliveries are then refused until the first run generates ours).
 */
export function storeConnection(
  credentials: StoreCredentials,
  reach: StoreReach,
): { connection: StoreConnection } | { problem: string } {
  const p = credentials.parameters;
  const s = credentials.secrets;
  switch (credentials.type) {
    case 'shopify': {
      const shopDomain = text(p.shopDomain);
      const clientId = text(p.clientId);
      const auth = s.accessToken
        ? { accessToken: s.accessToken }
        : clientId && s.clientSecret
          ? { clientId, clientSecret: s.clientSecret }
          : null;
      if (!shopDomain || !auth)
        return {
          problem:
            'Shopify credentials need parameters.shopDomain and secrets.accessToken (or parameters.clientId and secrets.clientSecret).',
        };
      return {
        connection: {
          platform: 'shopify',
          shopDomain: shopDomain.toLowerCase(),
          baseUrl: shopifyBaseUrl(shopDomain, reach.allowedHosts),
          auth,
          webhookSecret: s.webhookSecret ?? s.clientSecret ?? null,
        },
      };
    }
    case 'woocommerce': {
      const baseUrl = text(p.storeUrl);
      const consumerKey = text(p.consumerKey);
      if (!baseUrl || !consumerKey || !s.consumerSecret)
        return {
          problem:
            'WooCommerce credentials need parameters.storeUrl, parameters.consumerKey and secrets.consumerSecret.',
        };
      return {
        connection: {
          platform: 'woocommerce',
          baseUrl,
          consumerKey,
          consumerSecret: s.consumerSecret,
          webhookSecret: s.webhookSecret ?? null,
          trackingMetaKey: text(p.trackingMetaKey),
        },
      };
    }
    case 'bigcommerce': {
      const storeHash = text(p.storeHash);
      if (!storeHash || !s.accessToken)
        return {
          problem: 'BigCommerce credentials need parameters.storeHash and secrets.accessToken.',
        };
      return {
        connection: {
          platform: 'bigcommerce',
          baseUrl: bigcommerceBaseUrl(storeHash, reach.bigcommerceApiRoot),
          accessToken: s.accessToken,
          hookSecret: s.hookSecret ?? null,
        },
      };
    }
    default:
      return { problem: `${credentials.type} credentials cannot reach a store.` };
  }
}

export function storeSyncOptions(credentials: StoreCredentials): StoreSyncOptions {
  const p = credentials.parameters;
  const days = p.backfillDays;
  const status = p.statusIdOnDelivery;
  return {
    backfillDays: typeof days === 'number' && Number.isInteger(days) ? days : DEFAULT_BACKFILL_DAYS,
    customerNotes: p.customerNotes === true,
    completeOnDelivery: p.completeOnDelivery === true,
    statusIdOnDelivery: typeof status === 'number' && Number.isInteger(status) ? status : null,
  };
}

/**
 * The secret this service makes up for a platform when the credentials hold none: the one the
 * webhooks it creates are signed with (WooCommerce) or carry back (BigCommerce). Shopify signs
 * with the app's client secret, which only the merchant has.
 */
export function generatedSecretName(
  platform: StorePlatformType,
): 'webhookSecret' | 'hookSecret' | null {
  return platform === 'woocommerce'
    ? 'webhookSecret'
    : platform === 'bigcommerce'
      ? 'hookSecret'
      : null;
}

/**
 * Seconds between the periodic pulls of a workflow's `period`: `immediately` every
 * `pullMinutes` (store webhooks bring changes sooner; the pull is the safety net), `hourly`
 * and `daily` at that period, `manual` never (POST /workflows/execute only).
 */
export function pullIntervalSeconds(period: string, pullMinutes: number): number | null {
  switch (period) {
    case 'immediately':
      return pullMinutes * 60;
    case 'hourly':
      return 3600;
    case 'daily':
      return 86_400;
    default:
      return null;
  }
}
