import { resolve } from 'path';
import { LOG_LEVELS, NODE_ENVS, RATE_LIMIT_STORES } from './app-config';
import { parseTrustProxy } from './trust-proxy';

/** Parses one raw value or returns the reason it is invalid (a phrase: "must be ..."). */
export type Parser<T> = (raw: string) => { value: T } | { error: string };

export interface ConfigVariable<T = unknown> {
  name: string;
  /** Raw default; undefined means optional with no value. */
  default: string | undefined;
  description: string;
  parse: Parser<T>;
}

const oneOf =
  <T extends string>(allowed: readonly T[]): Parser<T> =>
  (raw) =>
    (allowed as readonly string[]).includes(raw)
      ? { value: raw as T }
      : { error: `must be one of ${allowed.join(', ')}` };

const integer =
  (min: number, max: number): Parser<number> =>
  (raw) =>
    /^\d+$/.test(raw) && +raw >= min && +raw <= max
      ? { value: +raw }
      : { error: `must be an integer from ${min} to ${max}` };

const boolean: Parser<boolean> = (raw) => {
  const v = raw.toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return { value: true };
  if (['false', '0', 'no'].includes(v)) return { value: false };
  return { error: 'must be true or false' };
};

const nonEmpty: Parser<string> = (raw) =>
  raw.trim() ? { value: raw.trim() } : { error: 'must not be empty' };

const postgresUrl: Parser<string> = (raw) => {
  try {
    const url = new URL(raw);
    if (['postgres:', 'postgresql:'].includes(url.protocol) && url.hostname) return { value: raw };
  } catch {
    // fall through to the error below
  }
  return { error: 'must be a URL like postgres://user:password@host:5432/database' };
};

const byteSize: Parser<string> = (raw) =>
  /^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i.test(raw.trim())
    ? { value: raw.trim().toLowerCase() }
    : { error: 'must be a size such as 512kb, 1mb or 1048576 (bytes)' };

const directory: Parser<string> = (raw) =>
  raw.trim() ? { value: resolve(raw.trim()) } : { error: 'must be a directory path' };

const urlWith =
  (protocols: string[], example: string): Parser<string> =>
  (raw) => {
    try {
      const url = new URL(raw.trim());
      if (protocols.includes(url.protocol) && url.hostname) return { value: raw.trim() };
    } catch {
      // fall through to the error below
    }
    return { error: `must be a URL like ${example}` };
  };

const hostList: Parser<string[]> = (raw) => {
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return hosts.every((h) => /^[a-z0-9.:_-]+$/.test(h))
    ? { value: hosts }
    : { error: 'must be a comma-separated list of host names or IP addresses' };
};

/**
 * The tracking provider types: the one list (PROVIDER_TYPES of src/tracking/providers/remote/
 * provider-adapter.ts is this; credentials types cover each). Here because the configuration
 * (TRACKING_PROVIDER) is the platform, which imports no feature module.
 */
export const TRACKING_PROVIDER_NAMES = [
  '17track',
  'aftership',
  'ship24',
  'dhl',
  'ups',
  'fedex',
  'usps',
  'easypost',
] as const;

/** A JSON object whose values are strings, numbers or booleans. */
const jsonStringObject: Parser<Record<string, string | number | boolean>> = (raw) => {
  try {
    const value: unknown = JSON.parse(raw);
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((v) => ['string', 'number', 'boolean'].includes(typeof v))
    ) {
      return { value: value as Record<string, string | number | boolean> };
    }
  } catch {
    // fall through to the error below
  }
  return { error: 'must be a JSON object of strings, numbers and booleans' };
};

/** Comma-separated secrets, kept as written (keys are case-sensitive). */
const keyList: Parser<string[]> = (raw) => {
  const keys = raw
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return keys.length > 0 ? { value: keys } : { error: 'must list at least one key' };
};

/** A comma-separated list, lower-cased, each item matching `item`. */
const commaList =
  (item: RegExp, what: string): Parser<string[]> =>
  (raw) => {
    const items = raw
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    return items.every((h) => item.test(h))
      ? { value: items }
      : { error: `must be a comma-separated list of ${what}` };
  };

/** Every environment variable the service reads. `.env.example` documents each one. */
export const CONFIG_VARIABLES = {
  nodeEnv: {
    name: 'NODE_ENV',
    default: 'development',
    description: 'development (pretty logs), production (JSON logs) or test',
    parse: oneOf(NODE_ENVS),
  },
  host: {
    name: 'HOST',
    default: '0.0.0.0',
    description: 'interface the HTTP server binds to',
    parse: nonEmpty,
  },
  port: {
    name: 'PORT',
    default: '8080',
    description: 'HTTP port',
    parse: integer(1, 65535),
  },
  databaseUrl: {
    name: 'DATABASE_URL',
    default: undefined,
    description: 'PostgreSQL to use; unset starts an embedded PostgreSQL under DATA_DIR/pg',
    parse: postgresUrl,
  },
  databasePoolSize: {
    name: 'DATABASE_POOL_SIZE',
    default: '10',
    description: 'maximum connections per process',
    parse: integer(2, 500),
  },
  databasePoolTimeoutMs: {
    name: 'DATABASE_POOL_TIMEOUT_MS',
    default: '5000',
    description:
      'how long a request waits for a free pool connection (or a new one to open) before it is answered 503 with Retry-After',
    parse: integer(100, 600000),
  },
  databaseStatementTimeoutMs: {
    name: 'DATABASE_STATEMENT_TIMEOUT_MS',
    default: '30000',
    description:
      'PostgreSQL statement_timeout of the API pool: a slower statement is cancelled (503) instead of holding its connection (0: no limit; migrations are exempt)',
    parse: integer(0, 86400000),
  },
  dataDir: {
    name: 'DATA_DIR',
    default: './var',
    description: 'local state (embedded PostgreSQL data in DATA_DIR/pg), relative to the cwd',
    parse: directory,
  },
  logLevel: {
    name: 'LOG_LEVEL',
    default: 'info',
    description: 'minimum log level',
    parse: oneOf(LOG_LEVELS),
  },
  bodyLimit: {
    name: 'BODY_LIMIT',
    default: '1mb',
    description: 'largest accepted request body; larger ones get 413',
    parse: byteSize,
  },
  migrateOnStart: {
    name: 'MIGRATE_ON_START',
    default: 'true',
    description: 'run pending migrations at start-up (under an advisory lock)',
    parse: boolean,
  },
  publicUrl: {
    name: 'PUBLIC_URL',
    default: undefined,
    description: 'external base URL used in e-mailed links; unset means http://localhost:PORT',
    parse: urlWith(['http:', 'https:'], 'https://api.example.com'),
  },
  smtpUrl: {
    name: 'SMTP_URL',
    default: undefined,
    description: 'SMTP server for outgoing mail; unset writes each mail to the log instead',
    parse: urlWith(['smtp:', 'smtps:'], 'smtp://user:password@smtp.example.com:587'),
  },
  mailFrom: {
    name: 'MAIL_FROM',
    default: 'Shipment Tracking <no-reply@localhost>',
    description: 'sender of outgoing mail',
    parse: nonEmpty,
  },
  mailRetryDelaySeconds: {
    name: 'MAIL_RETRY_DELAY_SECONDS',
    default: '30',
    description:
      'a mail whose immediate send failed is sent by a background job this long after dispatch; retries wait about twice as long each time',
    parse: integer(1, 86400),
  },
  mailMaxAttempts: {
    name: 'MAIL_MAX_ATTEMPTS',
    default: '8',
    description:
      'attempts to send one mail (the immediate one included) before it is given up and logged as an error',
    parse: integer(2, 20),
  },
  smtpAllowedHosts: {
    name: 'SMTP_ALLOWED_HOSTS',
    default: '',
    description:
      "comma-separated hosts a workspace's SMTP credentials may point to although they are private or loopback",
    parse: hostList,
  },
  tokenRateLimitPerAddress: {
    name: 'TOKEN_RATE_LIMIT_PER_ADDRESS',
    default: '300',
    description: 'OAuth token requests allowed per client IP address per window',
    parse: integer(1, 1000000),
  },
  tokenRateLimitPerClient: {
    name: 'TOKEN_RATE_LIMIT_PER_CLIENT',
    default: '120',
    description: 'OAuth token requests allowed per client_id per window',
    parse: integer(1, 1000000),
  },
  tokenRateWindowSeconds: {
    name: 'TOKEN_RATE_WINDOW_SECONDS',
    default: '60',
    description: 'length of the OAuth token rate-limit window',
    parse: integer(1, 86400),
  },
  accountRateLimitPerAddress: {
    name: 'ACCOUNT_RATE_LIMIT_PER_ADDRESS',
    default: '60',
    description:
      'sign-ups, verifications, password resets and consent-page logins allowed per client IP address per action per window',
    parse: integer(1, 1000000),
  },
  accountRateLimitPerAccount: {
    name: 'ACCOUNT_RATE_LIMIT_PER_ACCOUNT',
    default: '10',
    description:
      'the same, per e-mail address or account per action per window (mails sent; wrong passwords on the consent page, every password change)',
    parse: integer(1, 1000000),
  },
  accountRateWindowSeconds: {
    name: 'ACCOUNT_RATE_WINDOW_SECONDS',
    default: '900',
    description: 'length of the account rate-limit window',
    parse: integer(1, 86400),
  },
  pushFailureLimitPerCredentials: {
    name: 'PUSH_FAILURE_LIMIT_PER_CREDENTIALS',
    default: '20',
    description:
      'failed signature checks allowed per tracking credentials record per window at the push receivers (/public/tracking_webhooks/*, their token URL); beyond, every push for them is 429 until the window ends',
    parse: integer(1, 1000000),
  },
  pushFailureLimitPerAddress: {
    name: 'PUSH_FAILURE_LIMIT_PER_ADDRESS',
    default: '200',
    description:
      "the same, per client IP address (providers push from shared addresses: keep it well above one team's failures)",
    parse: integer(1, 1000000),
  },
  pushFailureWindowSeconds: {
    name: 'PUSH_FAILURE_WINDOW_SECONDS',
    default: '900',
    description: "length of the push receivers' failure window",
    parse: integer(1, 86400),
  },
  rateLimitStore: {
    name: 'RATE_LIMIT_STORE',
    default: 'postgres',
    description:
      'where rate-limit counters (token endpoints, widget lookups) live: postgres (shared by every node) or memory (per process)',
    parse: oneOf(RATE_LIMIT_STORES),
  },
  apiRateLimitPerCaller: {
    name: 'API_RATE_LIMIT_PER_CALLER',
    default: '3000',
    description:
      'requests per window each caller (a user, through one OAuth client) may make on all routes; beyond, 429 with Retry-After',
    parse: integer(1, 100000000),
  },
  apiRateLimitPerTeam: {
    name: 'API_RATE_LIMIT_PER_TEAM',
    default: '10000',
    description: 'requests per window the members of a team may make together',
    parse: integer(1, 100000000),
  },
  apiRateLimitPerAddress: {
    name: 'API_RATE_LIMIT_PER_ADDRESS',
    default: '3000',
    description:
      'requests per window a client address may make without a valid token (public routes, failed authentication)',
    parse: integer(1, 100000000),
  },
  apiRateWindowSeconds: {
    name: 'API_RATE_WINDOW_SECONDS',
    default: '60',
    description: 'length of the API rate-limit window (fixed windows, the same on every node)',
    parse: integer(1, 86400),
  },
  apiRateFlushMs: {
    name: 'API_RATE_FLUSH_MS',
    default: '1000',
    description:
      'how often a node adds the requests it counted to the shared counters and reads the totals back',
    parse: integer(10, 60000),
  },
  idempotencyKeyHours: {
    name: 'IDEMPOTENCY_KEY_HOURS',
    default: '24',
    description: 'how long the answer to a request with an Idempotency-Key is kept for replays',
    parse: integer(1, 720),
  },
  trustProxy: {
    name: 'TRUST_PROXY',
    default: undefined,
    description:
      "Express's trust proxy: which proxies' X-Forwarded-For/-Proto/-Host to believe, so per-client budgets key on the client's address; true, false, a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal, uniquelocal; unset trusts none",
    parse: parseTrustProxy,
  },
  publicTrackingBaseUrl: {
    name: 'PUBLIC_TRACKING_BASE_URL',
    default: undefined,
    description: 'base URL of public tracking page links (<base>/t/<hash>); unset uses PUBLIC_URL',
    parse: urlWith(['http:', 'https:'], 'https://track.example.com'),
  },
  workspaceSyncDeleteLimit: {
    name: 'WORKSPACE_SYNC_DELETE_LIMIT',
    default: '10000',
    description: 'workspaces with more shipments+orders are deleted in the background',
    parse: integer(0, 100000000),
  },
  workspaceDeleteBatchSize: {
    name: 'WORKSPACE_DELETE_BATCH_SIZE',
    default: '1000',
    description: 'rows removed per transaction by the background workspace deletion',
    parse: integer(1, 1000000),
  },
  workspaceDeleteIntervalSeconds: {
    name: 'WORKSPACE_DELETE_INTERVAL_SECONDS',
    default: '10',
    description: 'how often a node looks for workspaces scheduled for deletion (0 disables)',
    parse: integer(0, 86400),
  },
  noteReminderIntervalSeconds: {
    name: 'NOTE_REMINDER_INTERVAL_SECONDS',
    default: '60',
    description: 'how often a node delivers due note reminders as notifications (0 disables)',
    parse: integer(0, 86400),
  },
  trackingSyncTimeoutMs: {
    name: 'TRACKING_SYNC_TIMEOUT_MS',
    default: '2000',
    description:
      'how long a shipment create waits for the tracking provider before a background job takes over',
    parse: integer(0, 60000),
  },
  trackingTransitLimitDays: {
    name: 'TRACKING_TRANSIT_LIMIT_DAYS',
    default: '60',
    description: 'days in transit after which a shipment becomes transit_limit_exceeded',
    parse: integer(1, 3650),
  },
  trackingRefreshEnabled: {
    name: 'TRACKING_REFRESH_ENABLED',
    default: undefined,
    description:
      'run the periodic tracking refresh on this node; unset means on, except with NODE_ENV=test',
    parse: boolean,
  },
  trackingRefreshIntervalSeconds: {
    name: 'TRACKING_REFRESH_INTERVAL_SECONDS',
    default: '30',
    description: 'how often a node claims shipments due for a tracking refresh',
    parse: integer(1, 86400),
  },
  trackingRefreshBatchSize: {
    name: 'TRACKING_REFRESH_BATCH_SIZE',
    default: '500',
    description: 'shipments claimed per refresh round',
    parse: integer(1, 100000),
  },
  trackingRefreshLeaseSeconds: {
    name: 'TRACKING_REFRESH_LEASE_SECONDS',
    default: '600',
    description:
      'how long claimed shipments are reserved for the refresh that claimed them; a node that dies leaves them due again after this',
    parse: integer(1, 86400),
  },
  trackingRefreshConcurrency: {
    name: 'TRACKING_REFRESH_CONCURRENCY',
    default: '8',
    description: 'shipments refreshed at once by one node',
    parse: integer(1, 256),
  },
  trackingProvider: {
    name: 'TRACKING_PROVIDER',
    default: undefined,
    description:
      'instance-wide tracking provider for teams that configure none (17track, aftership, ship24, dhl, ups, fedex, usps, easypost); unset: sandbox and no_info only',
    parse: oneOf(TRACKING_PROVIDER_NAMES),
  },
  trackingProviderCredentials: {
    name: 'TRACKING_PROVIDER_CREDENTIALS',
    default: undefined,
    description:
      'JSON object of the instance provider\'s parameters and secrets, as its credentials type names them (e.g. {"apiKey":"..."})',
    parse: jsonStringObject,
  },
  trackingProviderAllowedHosts: {
    name: 'TRACKING_PROVIDER_ALLOWED_HOSTS',
    default: '',
    description:
      "comma-separated hosts a team's tracking credentials (`baseUrl`) may reach although they are private or loopback (a provider's production server needs no entry; TRACKING_PROVIDER is not checked)",
    parse: hostList,
  },
  jobWorkersEnabled: {
    name: 'JOB_WORKERS_ENABLED',
    default: 'true',
    description: 'process background jobs (pg-boss queues) on this node; sending works either way',
    parse: boolean,
  },
  jobExpireSeconds: {
    name: 'JOB_EXPIRE_SECONDS',
    default: undefined,
    description:
      'how long a running job may take before it counts as lost (its node died) and is retried; unset: each queue its own (15 min, imports 1 h)',
    parse: integer(1, 86400),
  },
  jobRetryDelaySeconds: {
    name: 'JOB_RETRY_DELAY_SECONDS',
    default: undefined,
    description:
      'first retry delay of a failed or lost job, doubled per retry; unset: each queue its own (5 to 30 s)',
    parse: integer(0, 86400),
  },
  jobMaintenanceIntervalSeconds: {
    name: 'JOB_MAINTENANCE_INTERVAL_SECONDS',
    default: '60',
    description:
      'how often a node looks for lost jobs (past JOB_EXPIRE_SECONDS) to retry them (one node at a time does it)',
    parse: integer(1, 3600),
  },
  credentialsEncryptionKey: {
    name: 'CREDENTIALS_ENCRYPTION_KEY',
    default: undefined,
    description:
      'key sealing credential secrets (64 hex digits or base64 of 32 bytes); required in production',
    parse: nonEmpty,
  },
  credentialsEncryptionKeyPrevious: {
    name: 'CREDENTIALS_ENCRYPTION_KEY_PREVIOUS',
    default: undefined,
    description:
      'comma-separated earlier credentials keys, still read until `npm run cli -- rotate-credentials-key` re-seals everything',
    parse: keyList,
  },
  eventDeliveryEnabled: {
    name: 'EVENT_DELIVERY_ENABLED',
    default: undefined,
    description:
      'deliver outbox events (webhooks, e-mail notifications) from this node; unset means on, except with NODE_ENV=test',
    parse: boolean,
  },
  eventDeliveryIntervalMs: {
    name: 'EVENT_DELIVERY_INTERVAL_MS',
    default: '1000',
    description: 'how often a node looks for outbox events and deliveries that are due',
    parse: integer(50, 3600000),
  },
  eventDeliveryLeaseSeconds: {
    name: 'EVENT_DELIVERY_LEASE_SECONDS',
    default: undefined,
    description:
      'how long a claimed delivery is reserved for the node sending it; a node that dies leaves it due again after this (unset: 5 min or 3 x WEBHOOK_TIMEOUT_MS)',
    parse: integer(1, 86400),
  },
  eventDeliveryBatchSize: {
    name: 'EVENT_DELIVERY_BATCH_SIZE',
    default: '50',
    description: 'events dispatched and deliveries attempted per round',
    parse: integer(1, 10000),
  },
  eventDeliveryMaxAttempts: {
    name: 'EVENT_DELIVERY_MAX_ATTEMPTS',
    default: '8',
    description: 'attempts of one delivery before it is given up',
    parse: integer(1, 100),
  },
  eventDeliveryRetryBaseSeconds: {
    name: 'EVENT_DELIVERY_RETRY_BASE_SECONDS',
    default: '30',
    description: 'delay before the first retry; doubled after every failed attempt (at most 6 h)',
    parse: integer(1, 86400),
  },
  webhookTimeoutMs: {
    name: 'WEBHOOK_TIMEOUT_MS',
    default: '10000',
    description: 'how long a webhook request may take before it counts as failed',
    parse: integer(100, 120000),
  },
  webhookAllowedHosts: {
    name: 'WEBHOOK_ALLOWED_HOSTS',
    default: '',
    description:
      'comma-separated host names or IP addresses webhooks may reach although they are private or loopback',
    parse: hostList,
  },
  retentionEnabled: {
    name: 'RETENTION_ENABLED',
    default: undefined,
    description:
      'delete finished records older than their RETENTION_DAYS_* from this node; unset means on, except with NODE_ENV=test',
    parse: boolean,
  },
  retentionIntervalSeconds: {
    name: 'RETENTION_INTERVAL_SECONDS',
    default: '3600',
    description: 'how often a node runs the retention sweep (one node at a time sweeps)',
    parse: integer(1, 604800),
  },
  retentionDaysEvents: {
    name: 'RETENTION_DAYS_EVENTS',
    default: '30',
    description:
      'days outbox events and their deliveries are kept once delivered or given up (0 keeps them)',
    parse: integer(0, 36500),
  },
  retentionDaysWorkflowRuns: {
    name: 'RETENTION_DAYS_WORKFLOW_RUNS',
    default: '30',
    description: 'days workflow runs (webhook attempts) are kept (0 keeps them)',
    parse: integer(0, 36500),
  },
  retentionDaysExports: {
    name: 'RETENTION_DAYS_EXPORTS',
    default: '7',
    description:
      'days finished exports (with their files) and batch jobs are kept after they finished (0 keeps them)',
    parse: integer(0, 36500),
  },
  retentionDaysWidgetLogs: {
    name: 'RETENTION_DAYS_WIDGET_LOGS',
    default: '30',
    description: 'days widget log entries are kept (0 keeps them)',
    parse: integer(0, 36500),
  },
  retentionDaysNotifications: {
    name: 'RETENTION_DAYS_NOTIFICATIONS',
    default: '90',
    description:
      'days in-app notifications are kept after they were read; unread ones stay (0 keeps them)',
    parse: integer(0, 36500),
  },
  retentionDaysTokens: {
    name: 'RETENTION_DAYS_TOKENS',
    default: '30',
    description:
      'days expired access tokens, refresh tokens, authorization codes and e-mailed codes are kept after expiry (0 keeps them)',
    parse: integer(0, 36500),
  },
  billingProviderUrl: {
    name: 'BILLING_PROVIDER_URL',
    default: undefined,
    description:
      'base URL of the hosted-checkout billing provider API (Chargebee-like, e.g. https://acme.chargebee.com); unset: billing checkout endpoints answer 503',
    parse: urlWith(['http:', 'https:'], 'https://acme.chargebee.com'),
  },
  billingProviderApiKey: {
    name: 'BILLING_PROVIDER_API_KEY',
    default: undefined,
    description: 'API key of the billing provider (sent as the HTTP Basic user name)',
    parse: nonEmpty,
  },
  billingWebhookSecret: {
    name: 'BILLING_WEBHOOK_SECRET',
    default: undefined,
    description:
      'shared secret of POST /billing/billing_provider/webhook: HMAC-SHA256 of the raw body; unset: every webhook is refused',
    parse: nonEmpty,
  },
  billingEnforceEntitlements: {
    name: 'BILLING_ENFORCE_ENTITLEMENTS',
    default: undefined,
    description:
      'refuse (422) workspaces, members and shipments beyond the plan; unset means on, except with NODE_ENV=test',
    parse: boolean,
  },
  outboundHttpTimeoutMs: {
    name: 'OUTBOUND_HTTP_TIMEOUT_MS',
    default: '10000',
    description:
      'timeout of calls to the billing provider, the storefront app and shop pages (theme generation)',
    parse: integer(100, 120000),
  },
  integrationSecret: {
    name: 'INTEGRATION_SECRET',
    default: undefined,
    description:
      'shared secret the storefront and marketing apps send in X-Integration-Secret to /integration-secure/*; unset: those endpoints refuse every call',
    parse: nonEmpty,
  },
  storefrontAppUrl: {
    name: 'STOREFRONT_APP_URL',
    default: undefined,
    description:
      'base URL of the storefront app (installations and subscription charges); unset: storefront sign-up and checkout answer 503',
    parse: urlWith(['http:', 'https:'], 'https://storefront-app.example.com'),
  },
  storefrontAppApiKey: {
    name: 'STOREFRONT_APP_API_KEY',
    default: undefined,
    description: 'bearer key of the storefront app API',
    parse: nonEmpty,
  },
  storefrontAppWebhookSecret: {
    name: 'STOREFRONT_APP_WEBHOOK_SECRET',
    default: undefined,
    description:
      'shared secret of POST /billing/storefront/webhook (X-Storefront-Hmac-Sha256: base64 HMAC-SHA256 of the raw body); unset: every storefront webhook is refused',
    parse: nonEmpty,
  },
  customDomainCnameTarget: {
    name: 'CUSTOM_DOMAIN_CNAME_TARGET',
    default: undefined,
    description:
      'host name custom tracking page domains point their CNAME at; unset: only the TXT record proves a domain',
    parse: nonEmpty,
  },
  dnsServers: {
    name: 'DNS_SERVERS',
    default: '',
    description:
      'comma-separated DNS servers (address or address:port) for custom domain checks; empty: the system resolvers',
    parse: commaList(/^[0-9a-f.:[\]]+$/i, 'IP addresses with optional :port'),
  },
  themeFetchAllowedHosts: {
    name: 'THEME_FETCH_ALLOWED_HOSTS',
    default: '',
    description:
      'comma-separated hosts POST /public/generate-theme may fetch although they are private or loopback',
    parse: commaList(/^[a-z0-9.:_-]+$/i, 'host names or IP addresses'),
  },
  imageProxyAllowedHosts: {
    name: 'IMAGE_PROXY_ALLOWED_HOSTS',
    default: '',
    description:
      'comma-separated hosts the tracking page image proxy (/public/images/*) may fetch although they are private or loopback',
    parse: commaList(/^[a-z0-9.:_-]+$/i, 'host names or IP addresses'),
  },
  storeSyncAllowedHosts: {
    name: 'STORE_SYNC_ALLOWED_HOSTS',
    default: '',
    description:
      'comma-separated hosts store sync (Shopify, WooCommerce, BigCommerce) may reach although they are private or loopback; only these may be reached over plain http (tests, sandboxes)',
    parse: hostList,
  },
  storeSyncEnabled: {
    name: 'STORE_SYNC_ENABLED',
    default: undefined,
    description:
      'look for store workflows whose periodic pull is due on this node (rows claimed with SKIP LOCKED; the runs are jobs); unset means on, except with NODE_ENV=test',
    parse: boolean,
  },
  storeSyncIntervalSeconds: {
    name: 'STORE_SYNC_INTERVAL_SECONDS',
    default: '30',
    description: 'how often a node looks for store workflows whose pull is due',
    parse: integer(1, 86400),
  },
  storeSyncPullMinutes: {
    name: 'STORE_SYNC_PULL_MINUTES',
    default: '15',
    description:
      'minutes between the safety-net pulls of a store workflow with period `immediately` (store webhooks bring changes sooner); hourly and daily ones pull at that period, manual ones on POST /workflows/execute only',
    parse: integer(1, 1440),
  },
  storeSyncLeaseSeconds: {
    name: 'STORE_SYNC_LEASE_SECONDS',
    default: '300',
    description:
      'how long a store sync run holds its workflow without showing progress; a node that dies leaves it to the next run after this',
    parse: integer(5, 86400),
  },
  bigcommerceApiRoot: {
    name: 'BIGCOMMERCE_API_ROOT',
    default: 'https://api.bigcommerce.com',
    description:
      "BigCommerce's API root (`{root}/stores/{hash}/v2|v3`); tests and sandboxes point it at a fake listed in STORE_SYNC_ALLOWED_HOSTS",
    parse: urlWith(['http:', 'https:'], 'https://api.bigcommerce.com'),
  },
  imageProxyMaxFetches: {
    name: 'IMAGE_PROXY_MAX_FETCHES',
    default: '16',
    description:
      'remote images the tracking page image proxy fetches at once on this node, in all (each streamed, at most 1 MB of it held for the cache)',
    parse: integer(1, 10000),
  },
  imageProxyMaxFetchesPerWorkspace: {
    name: 'IMAGE_PROXY_MAX_FETCHES_PER_WORKSPACE',
    default: '4',
    description: 'the same, for the pages of one workspace',
    parse: integer(1, 10000),
  },
  imageProxyQueueWaitMs: {
    name: 'IMAGE_PROXY_QUEUE_WAIT_MS',
    default: '5000',
    description:
      'how long an image request waits for a free fetch before it is answered 503 with Retry-After',
    parse: integer(0, 120000),
  },
  testPauseAt: {
    name: 'TEST_PAUSE_AT',
    default: undefined,
    description:
      'tests only (crash tests): comma-separated pause points (src/common/pause-point.ts) where background work stops for good, so a test can kill the process there; never in production',
    parse: commaList(/^[a-z.-]+$/, 'pause point names'),
  },
  enableTestFixtures: {
    name: 'ENABLE_TEST_FIXTURES',
    default: 'false',
    description: 'serve POST /test/load-fixtures (demo data for the caller); never in production',
    parse: boolean,
  },
} satisfies Record<string, ConfigVariable<any>>;
