import { isEmail } from 'class-validator';
import { findCarrier } from '../tracking/carriers/carrier-catalogue';
import type { ProviderType } from '../tracking/providers/remote/provider-adapter';
import { providerBaseUrlProblem } from '../tracking/providers/remote/provider-url';

export type ParameterKind =
  | 'string'
  | 'url'
  /** An http(s) URL paths are appended to: no query, fragment or user info (provider-url.ts). */
  | 'baseUrl'
  | 'host'
  /**
   * A Shopify shop's host (`{shop}.myshopify.com`); `host:port` only for a host of
   * STORE_SYNC_ALLOWED_HOSTS (a sandbox or a test's fake), checked by the credentials service.
   */
  | 'shopDomain'
  /** A store's http(s) address (WooCommerce); private addresses refused unless allow-listed. */
  | 'storeUrl'
  | 'integer'
  | 'boolean'
  | 'email'
  /** Comma-separated carrier codes of the catalogue (src/tracking/carriers), e.g. "ups,fedex". */
  | 'carrierCodes';

export interface CredentialTypeSpec {
  title: string;
  /** Listed with `onlyVisibleTypes`; hidden ones exist only as a workflow's own settings. */
  visible: boolean;
  tags: string[];
  /** Plain settings, returned as given. */
  parameters: Record<string, ParameterKind>;
  /** Secret settings: stored encrypted, returned masked. */
  secrets: string[];
  /** Shortest accepted secret (signing keys must resist guessing). */
  minSecretLength?: number;
  /**
   * Secrets the user makes up and shares with a provider, which then proves itself with them
   * on our public push URLs (`webhookSecret`): at least 16 random-looking characters
   * (secret-strength.ts), since anyone may try them there.
   */
  chosenSecrets?: string[];
  /**
   * The parameters that say where the credentials connect (server, store, endpoint). A PUT
   * that changes one of them drops the stored secrets unless it gives new ones, so nobody can
   * point a team's login or signing key at another server and have it sent there.
   */
  destination: string[];
}

/**
 * Settings every tracking provider's credentials accept besides their own (see
 * src/tracking/README.md, "Tracking providers"): `baseUrl` (unset: the provider's production
 * URL), `isDefault` (the team's default provider), `carriers` (carriers routed to this provider
 * whatever the default), `requestsPerSecond` (the budget shared by every node; unset: the
 * provider's documented limit).
 */
const TRACKING_ROUTING_PARAMETERS = {
  baseUrl: 'baseUrl',
  isDefault: 'boolean',
  carriers: 'carrierCodes',
  requestsPerSecond: 'integer',
} satisfies Record<string, ParameterKind>;

function trackingProvider(
  title: string,
  parameters: Record<string, ParameterKind>,
  secrets: string[],
): CredentialTypeSpec {
  return {
    title,
    visible: true,
    tags: ['tracking'],
    parameters: { ...TRACKING_ROUTING_PARAMETERS, ...parameters },
    secrets,
    chosenSecrets: secrets.filter((name) => name === 'webhookSecret'),
    // Pointing the keys at another server (a changed baseUrl) drops them.
    destination: ['baseUrl'],
  };
}

/**
 * Tracking providers (src/tracking/providers/<provider>/), one type per PROVIDER_TYPES entry;
 * what each holds follows the provider's authentication (shared/carrier-apis.md).
 */
function trackingProviderTypes() {
  return {
    /** `apiKey`: the 17token security key; it also signs webhook pushes (`sign`). */
    '17track': trackingProvider('17TRACK', {}, ['apiKey']),
    /** `apiKey` (as-api-key header); `webhookSecret` checks aftership-hmac-sha256. */
    aftership: trackingProvider('AfterShip', {}, ['apiKey', 'webhookSecret']),
    /** `apiKey` (Bearer); `webhookSecret` is the Bearer secret Ship24 pushes with. */
    ship24: trackingProvider('Ship24', {}, ['apiKey', 'webhookSecret']),
    /** `apiKey`: the DHL-API-Key consumer key (the Unified API has no push). */
    dhl: trackingProvider('DHL Shipment Tracking', {}, ['apiKey']),
    /** OAuth client credentials; `merchantId` is the optional x-merchant-id; Track Alert secret. */
    ups: trackingProvider('UPS Track', { clientId: 'string', merchantId: 'string' }, [
      'clientSecret',
      'webhookSecret',
    ]),
    /** OAuth client credentials: `clientId` is the FedEx API key, `clientSecret` its secret key. */
    fedex: trackingProvider('FedEx Track', { clientId: 'string' }, ['clientSecret']),
    /** OAuth client credentials of the USPS developer portal. */
    usps: trackingProvider('USPS Tracking v3', { clientId: 'string' }, ['clientSecret']),
    /** `apiKey` (HTTP Basic user); `webhookSecret` checks X-Hmac-Signature. */
    easypost: trackingProvider('EasyPost Trackers', {}, ['apiKey', 'webhookSecret']),
  } satisfies Record<ProviderType, CredentialTypeSpec>;
}

/**
 * The kinds of credentials and what each holds. Every member is optional when a record is
 * written (the spec lets a workflow POST create credentials from `{type, team}` alone, to be
 * completed later); whoever uses credentials checks that what it needs is there (a webhook
 * workflow needs `url` and `signingSecret`).
 */
export const CREDENTIAL_TYPES = {
  webhook: {
    title: 'Webhook endpoint',
    visible: false,
    tags: ['webhook'],
    parameters: { url: 'url' },
    secrets: ['signingSecret'],
    minSecretLength: 16,
    destination: ['url'],
  },
  smtp: {
    title: 'SMTP server',
    visible: true,
    tags: ['email'],
    parameters: {
      host: 'host',
      port: 'integer',
      secure: 'boolean',
      username: 'string',
      fromEmail: 'email',
    },
    secrets: ['password'],
    destination: ['host', 'port'],
  },
  /**
   * Store sync (src/store-sync, README "Store sync"): a workflow of the type with these
   * credentials is run by this service. `backfillDays`: the first run's window (default 30);
   * the push-back options sit here too, as the workflow resource has no free settings.
   */
  shopify: {
    title: 'Shopify',
    visible: true,
    tags: ['ecommerce'],
    /** A stored Admin API `accessToken`, or `clientId` + `clientSecret` exchanged for one. */
    parameters: { shopDomain: 'shopDomain', clientId: 'string', backfillDays: 'integer' },
    /** `webhookSecret`: the app's client secret signing webhooks (default `clientSecret`). */
    secrets: ['accessToken', 'clientSecret', 'webhookSecret'],
    destination: ['shopDomain'],
  },
  woocommerce: {
    title: 'WooCommerce',
    visible: true,
    tags: ['ecommerce'],
    parameters: {
      storeUrl: 'storeUrl',
      consumerKey: 'string',
      /** Order meta key holding tracking numbers (stores without Shipment Tracking). */
      trackingMetaKey: 'string',
      backfillDays: 'integer',
      /** Order notes shown (and mailed) to the customer; default private notes. */
      customerNotes: 'boolean',
      /** Mark the order completed once all its parcels are delivered. */
      completeOnDelivery: 'boolean',
    },
    /** `webhookSecret` signs the webhooks we create; generated on the first run when unset. */
    secrets: ['consumerSecret', 'webhookSecret'],
    chosenSecrets: ['webhookSecret'],
    destination: ['storeUrl'],
  },
  bigcommerce: {
    title: 'BigCommerce',
    visible: true,
    tags: ['ecommerce'],
    parameters: {
      storeHash: 'string',
      backfillDays: 'integer',
      /** Order status id set once all parcels are delivered (10: Completed); unset: none. */
      statusIdOnDelivery: 'integer',
    },
    /** `hookSecret`: the header our hooks carry back; generated on the first run when unset. */
    secrets: ['accessToken', 'hookSecret'],
    chosenSecrets: ['hookSecret'],
    destination: ['storeHash'],
  },
  magento: {
    title: 'Magento',
    visible: true,
    tags: ['ecommerce'],
    parameters: { storeUrl: 'url' },
    secrets: ['accessToken'],
    destination: ['storeUrl'],
  },
  shipstation: {
    title: 'ShipStation',
    visible: true,
    tags: ['fulfillment'],
    parameters: { apiKey: 'string' },
    secrets: ['apiSecret'],
    destination: [],
  },
  shipbob: {
    title: 'ShipBob',
    visible: true,
    tags: ['fulfillment'],
    parameters: {},
    secrets: ['accessToken'],
    destination: [],
  },
  ...trackingProviderTypes(),
} satisfies Record<string, CredentialTypeSpec>;

export type CredentialType = keyof typeof CREDENTIAL_TYPES;
export const CREDENTIAL_TYPE_NAMES = Object.keys(CREDENTIAL_TYPES) as CredentialType[];
export const VISIBLE_CREDENTIAL_TYPES = CREDENTIAL_TYPE_NAMES.filter(
  (t) => CREDENTIAL_TYPES[t].visible,
);

/** Whether `after` connects elsewhere than `before` (a destination parameter changed). */
export function destinationChanged(
  spec: CredentialTypeSpec,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): boolean {
  return spec.destination.some((key) => (before[key] ?? null) !== (after[key] ?? null));
}

export function credentialType(type: string): CredentialTypeSpec | undefined {
  return Object.prototype.hasOwnProperty.call(CREDENTIAL_TYPES, type)
    ? (CREDENTIAL_TYPES as Record<string, CredentialTypeSpec>)[type]
    : undefined;
}

const MAX_VALUE_LENGTH = 2048;

/** The message for a parameter value that does not fit its kind; null when it fits. */
export function parameterProblem(kind: ParameterKind, value: unknown): string | null {
  if (value === null) return null;
  switch (kind) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535
        ? null
        : 'This value should be an integer from 0 to 65535.';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'This value should be of type bool.';
  }
  if (typeof value !== 'string') return 'This value should be of type string.';
  if (value.length > MAX_VALUE_LENGTH) {
    return `This value is too long. It should have ${MAX_VALUE_LENGTH} characters or less.`;
  }
  switch (kind) {
    case 'url':
      return isHttpUrl(value) ? null : 'This value is not a valid URL.';
    case 'baseUrl':
      return providerBaseUrlProblem(value);
    case 'shopDomain':
      return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i.test(
        value,
      ) && value.length <= 253
        ? null
        : 'This value is not a valid shop domain.';
    case 'storeUrl':
      return isHttpUrl(value) ? null : 'This value is not a valid URL.';
    case 'host':
      return /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(
        value,
      )
        ? null
        : 'This value is not a valid host name.';
    case 'email':
      return isEmail(value) ? null : 'This value is not a valid email address.';
    case 'carrierCodes': {
      const unknown = carrierCodeList(value).filter((code) => !findCarrier(code));
      return unknown.length === 0
        ? null
        : `Unknown carrier code(s): ${unknown.join(', ')}. Codes are listed by GET /public/carriers.`;
    }
    default:
      return null;
  }
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The codes of a `carrierCodes` parameter, trimmed and lower-cased. */
export function carrierCodeList(value: string): string[] {
  return value
    .split(',')
    .map((code) => code.trim().toLowerCase())
    .filter(Boolean);
}
