import type { StorePlatformType } from './store-platform';

/**
 * Why a call to a store failed. `message` is a short fixed sentence safe to show the tenant
 * (a run's error, a notification): it names the status or the kind of failure, never the
 * store's answer body.
 */
export type StoreFailureKind =
  /** 401/403, or a token exchange refused: the credentials are marked rejected, no retry. */
  | 'credentials_rejected'
  /** 5xx, timeout, connection refused, unknown host: the run fails, the cursor stays. */
  | 'unavailable'
  /** 429 or throttling that lasts longer than a run waits: retried later. */
  | 'rate_limited'
  /** The outbound policy refuses the address (private, or plain http to a public host). */
  | 'refused'
  /** Another 4xx: this request is wrong for this store (unknown order, missing scope...). */
  | 'request_failed'
  /** An answer that is not what the protocol says (unparseable, missing fields). */
  | 'bad_answer';

export class StoreSyncError extends Error {
  override readonly name: string = 'StoreSyncError';
  constructor(
    readonly platform: StorePlatformType,
    readonly kind: StoreFailureKind,
    message: string,
    readonly details: {
      readonly status?: number;
      /** For rate_limited: when trying again makes sense. */
      readonly retryAfterMs?: number;
    } = {},
  ) {
    super(message);
  }

  get status(): number | undefined {
    return this.details.status;
  }
}

export class StoreCredentialsRejected extends StoreSyncError {
  override readonly name = 'StoreCredentialsRejected';
  constructor(platform: StorePlatformType, status: number) {
    super(
      platform,
      'credentials_rejected',
      `${title(platform)} refused the credentials (HTTP ${status})`,
      { status },
    );
  }
}

export class StoreUnavailable extends StoreSyncError {
  override readonly name = 'StoreUnavailable';
  constructor(platform: StorePlatformType, what: string, status?: number) {
    super(platform, 'unavailable', `${title(platform)} store unavailable: ${what}`, { status });
  }
}

export class StoreRateLimited extends StoreSyncError {
  override readonly name = 'StoreRateLimited';
  constructor(platform: StorePlatformType, retryAfterMs: number) {
    super(
      platform,
      'rate_limited',
      `${title(platform)} asked to slow down for ${Math.ceil(retryAfterMs / 1000)} s`,
      { status: 429, retryAfterMs },
    );
  }
}

export class StoreAddressRefused extends StoreSyncError {
  override readonly name = 'StoreAddressRefused';
  constructor(platform: StorePlatformType, why: string) {
    super(platform, 'refused', `${title(platform)} store address refused: ${why}`);
  }
}

export class StoreRequestFailed extends StoreSyncError {
  override readonly name = 'StoreRequestFailed';
  constructor(platform: StorePlatformType, what: string, status?: number) {
    super(platform, 'request_failed', `${title(platform)} refused the request: ${what}`, {
      status,
    });
  }
}

export class StoreAnswerInvalid extends StoreSyncError {
  override readonly name = 'StoreAnswerInvalid';
  constructor(platform: StorePlatformType, what: string) {
    super(platform, 'bad_answer', `${title(platform)} answered something unexpected: ${what}`);
  }
}

function title(platform: StorePlatformType): string {
  return { shopify: 'Shopify', woocommerce: 'WooCommerce', bigcommerce: 'BigCommerce' }[platform];
}
