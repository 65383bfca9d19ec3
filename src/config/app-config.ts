import type { TrustProxy } from './trust-proxy';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const RATE_LIMIT_STORES = ['postgres', 'memory'] as const;
export type RateLimitStore = (typeof RATE_LIMIT_STORES)[number];

/**
 * Typed, validated configuration. A class (not an interface) so Nest can inject it by type:
 * `constructor(private readonly config: AppConfig)`. Build it with `loadConfig()`.
 */
export class AppConfig {
  readonly nodeEnv: NodeEnv;
  readonly host: string;
  readonly port: number;
  /** External PostgreSQL; undefined means "start the embedded one under dataDir". */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  /** Wait for a pool connection before a request is answered 503. */
  readonly databasePoolTimeoutMs: number;
  /** statement_timeout of the API pool; 0: none. */
  readonly databaseStatementTimeoutMs: number;
  /** Absolute path; the embedded PostgreSQL lives in `<dataDir>/pg`. */
  readonly dataDir: string;
  readonly logLevel: LogLevel;
  /** Maximum request body size, in the `bytes` notation body-parser accepts (e.g. `1mb`). */
  readonly bodyLimit: string;
  readonly migrateOnStart: boolean;
  /** External base URL for links in mail; undefined means `http://localhost:<port>`. */
  readonly publicUrl: string | undefined;
  /** SMTP server (`smtp://` or `smtps://`); undefined means mail is written to the log. */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** Head start of a mail's immediate send before its job may send it; first retry delay. */
  readonly mailRetryDelaySeconds: number;
  /** Attempts per mail (immediate one, job run, retries) before it is given up. */
  readonly mailMaxAttempts: number;
  /** Hosts (names or addresses, lower case) workspace SMTP credentials may reach although private. */
  readonly smtpAllowedHosts: string[];
  /** OAuth token endpoints: requests per window, per client address and per client_id. */
  readonly tokenRateLimitPerAddress: number;
  readonly tokenRateLimitPerClient: number;
  readonly tokenRateWindowSeconds: number;
  /**
   * Account endpoints (`/security/*`, the consent page's password login): attempts per window
   * of each action, per client address and per e-mail address or account.
   */
  readonly accountRateLimitPerAddress: number;
  readonly accountRateLimitPerAccount: number;
  readonly accountRateWindowSeconds: number;
  /**
   * Push receivers (`/public/tracking_webhooks/*`): failed signature checks per window, per
   * credentials record and per client address.
   */
  readonly pushFailureLimitPerCredentials: number;
  readonly pushFailureLimitPerAddress: number;
  readonly pushFailureWindowSeconds: number;
  /** Where rate-limit counters live: PostgreSQL (shared by every node) or this process. */
  readonly rateLimitStore: RateLimitStore;
  /**
   * Budgets of every route (src/rate-limit/README.md): requests per window per caller (user
   * and OAuth client), per team, and per client address (public routes, failed sign-ins).
   */
  readonly apiRateLimitPerCaller: number;
  readonly apiRateLimitPerTeam: number;
  readonly apiRateLimitPerAddress: number;
  readonly apiRateWindowSeconds: number;
  /** How often a node adds its counted requests to the shared counters (milliseconds). */
  readonly apiRateFlushMs: number;
  /** How long an `Idempotency-Key`'s answer is kept (hours). */
  readonly idempotencyKeyHours: number;
  /**
   * Express's `trust proxy`, set by configureApp; undefined leaves Express's default (no proxy
   * trusted: `req.ip` is the socket's peer).
   */
  readonly trustProxy: TrustProxy | undefined;
  /** Base of public tracking page links; undefined means publicUrl (or the request's base). */
  readonly publicTrackingBaseUrl: string | undefined;
  /** Shipments+orders above which DELETE /workspaces/{id} schedules a background deletion. */
  readonly workspaceSyncDeleteLimit: number;
  readonly workspaceDeleteBatchSize: number;
  /** Period of the background workspace deletion; 0 disables it on this node. */
  readonly workspaceDeleteIntervalSeconds: number;
  /** Period of the note reminder delivery; 0 disables it on this node. */
  readonly noteReminderIntervalSeconds: number;
  /** A create waits this long for the tracking provider, then a background job takes over. */
  readonly trackingSyncTimeoutMs: number;
  readonly trackingTransitLimitDays: number;
  /** Periodic tracking refresh on this node; undefined: on unless nodeEnv is test. */
  readonly trackingRefreshEnabled: boolean | undefined;
  readonly trackingRefreshIntervalSeconds: number;
  readonly trackingRefreshBatchSize: number;
  readonly trackingRefreshConcurrency: number;
  /** Tracking provider of teams that configure none; undefined: sandbox and no_info only. */
  readonly trackingProvider: string | undefined;
  /** Parameters and secrets of that provider, named as its credentials type names them. */
  readonly trackingProviderCredentials: Record<string, string | number | boolean> | undefined;
  /**
   * Hosts (names or addresses, lower case) a team's tracking credentials may reach although
   * private; the provider's own server needs none, TRACKING_PROVIDER is not checked.
   */
  readonly trackingProviderAllowedHosts: string[];
  readonly trackingRefreshLeaseSeconds: number;
  /** This node processes background jobs (pg-boss workers). */
  readonly jobWorkersEnabled: boolean;
  /** Overrides every queue's expiry (a lost job is retried after it); undefined: the queue's. */
  readonly jobExpireSeconds: number | undefined;
  /** Overrides every queue's first retry delay; undefined: the queue's. */
  readonly jobRetryDelaySeconds: number | undefined;
  readonly jobMaintenanceIntervalSeconds: number;
  /** Seals credential secrets; undefined outside production means a development key. */
  readonly credentialsEncryptionKey: string | undefined;
  /** Earlier keys, still opening secrets sealed with them until rotated. */
  readonly credentialsEncryptionKeyPrevious: string[] | undefined;
  /** Outbox delivery on this node; undefined: on unless nodeEnv is test. */
  readonly eventDeliveryEnabled: boolean | undefined;
  readonly eventDeliveryIntervalMs: number;
  readonly eventDeliveryBatchSize: number;
  /** Lease of a claimed delivery; undefined: max(5 min, 3 x webhookTimeoutMs). */
  readonly eventDeliveryLeaseSeconds: number | undefined;
  readonly eventDeliveryMaxAttempts: number;
  readonly eventDeliveryRetryBaseSeconds: number;
  readonly webhookTimeoutMs: number;
  /** Hosts (names or addresses, lower case) webhooks may reach despite private addresses. */
  readonly webhookAllowedHosts: string[];
  /** Retention sweeper on this node; undefined: on unless nodeEnv is test. */
  readonly retentionEnabled: boolean | undefined;
  readonly retentionIntervalSeconds: number;
  /** Days finished records are kept (see src/retention); 0 keeps them forever. */
  readonly retentionDaysEvents: number;
  readonly retentionDaysWorkflowRuns: number;
  readonly retentionDaysExports: number;
  readonly retentionDaysWidgetLogs: number;
  readonly retentionDaysNotifications: number;
  readonly retentionDaysTokens: number;

  /** Hosted-checkout billing provider (Chargebee-like REST); undefined: not configured. */
  readonly billingProviderUrl: string | undefined;
  readonly billingProviderApiKey: string | undefined;
  /** HMAC-SHA256 key of billing webhooks; undefined refuses them all. */
  readonly billingWebhookSecret: string | undefined;
  /** Plan limits enforced on writes; undefined: on unless nodeEnv is test. */
  readonly billingEnforceEntitlements: boolean | undefined;
  readonly outboundHttpTimeoutMs: number;
  /** Shared secret of /integration-secure/*; undefined refuses every call. */
  readonly integrationSecret: string | undefined;
  readonly storefrontAppUrl: string | undefined;
  readonly storefrontAppApiKey: string | undefined;
  /** HMAC-SHA256 key of the storefront app's charge webhooks; undefined refuses them all. */
  readonly storefrontAppWebhookSecret: string | undefined;
  readonly customDomainCnameTarget: string | undefined;
  /** DNS servers for custom domain checks; empty: the system's. */
  readonly dnsServers: string[];
  /** Hosts theme generation may fetch despite private addresses (lower case). */
  readonly themeFetchAllowedHosts: string[];
  /** Hosts the tracking page image proxy may fetch despite private addresses (lower case). */
  readonly imageProxyAllowedHosts: string[];
  /**
   * Store hosts store sync may reach despite private addresses, over plain http (lower case):
   * tests and sandboxes only.
   */
  readonly storeSyncAllowedHosts: string[];
  /** Looks for due store workflow pulls on this node; undefined: on unless nodeEnv is test. */
  readonly storeSyncEnabled: boolean | undefined;
  readonly storeSyncIntervalSeconds: number;
  /** Minutes between pulls of store workflows with period `immediately`. */
  readonly storeSyncPullMinutes: number;
  readonly storeSyncLeaseSeconds: number;
  readonly bigcommerceApiRoot: string;
  /** Image proxy fetches at once on this node: in all, per workspace; wait for one (ms). */
  readonly imageProxyMaxFetches: number;
  readonly imageProxyMaxFetchesPerWorkspace: number;
  readonly imageProxyQueueWaitMs: number;
  readonly enableTestFixtures: boolean;
  /** Crash tests only: pause points where background work stops (src/common/pause-point.ts). */
  readonly testPauseAt: string[] | undefined;

  constructor(values: AppConfig) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }
}
