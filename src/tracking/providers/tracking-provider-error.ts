/**
 * transient: try again later (timeouts, rate limits, carrier outages);
 * permanent: asking again will not help (number rejected, credentials revoked).
 */
export type TrackingProviderErrorKind = 'transient' | 'permanent';

export interface TrackingProviderErrorOptions {
  readonly provider?: string;
  /** A hint from the carrier (e.g. Retry-After) for transient errors. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

export class TrackingProviderError extends Error {
  override readonly name = 'TrackingProviderError';
  readonly provider: string | null;
  readonly retryAfterMs: number | null;

  constructor(
    message: string,
    readonly kind: TrackingProviderErrorKind,
    options: TrackingProviderErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.provider = options.provider ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }

  static transient(message: string, options?: TrackingProviderErrorOptions): TrackingProviderError {
    return new TrackingProviderError(message, 'transient', options);
  }

  static permanent(message: string, options?: TrackingProviderErrorOptions): TrackingProviderError {
    return new TrackingProviderError(message, 'permanent', options);
  }

  get transient(): boolean {
    return this.kind === 'transient';
  }

  /** Whether a failed track() is worth retrying; unexpected errors (network, bugs) are. */
  static isRetryable(error: unknown): boolean {
    return !(error instanceof TrackingProviderError) || error.transient;
  }
}
