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
  /** What the provider's server said, for the operator only (see `detail`). */
  readonly detail?: string | null;
}

/**
 * A provider failure. Its `message` ends up where the tenant reads it (a shipment's
 * `trackingError`, credentials' `rejectionReason`, notifications), so it is our own fixed
 * wording, the HTTP status at most: never text of the server's answer, which may be anyone's
 * server when the tenant chose it. What the server said goes to `detail`, shown to the
 * operator only (server logs, the `track` CLI).
 */
export class TrackingProviderError extends Error {
  override readonly name = 'TrackingProviderError';
  readonly provider: string | null;
  readonly retryAfterMs: number | null;
  readonly detail: string | null;

  constructor(
    message: string,
    readonly kind: TrackingProviderErrorKind,
    options: TrackingProviderErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.provider = options.provider ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.detail = options.detail ?? null;
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

/** Longest `detail` kept (it goes to logs). */
const MAX_DETAIL = 300;

/**
 * The words of a server's answer as an operator-only `detail`: strings and numbers among
 * `parts` (or an answer's text), flattened and cut short; null when there are none.
 */
export function providerDetail(...parts: unknown[]): string | null {
  const flat = parts
    .filter((p) => (typeof p === 'string' && p !== '') || typeof p === 'number')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat === '') return null;
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL)}…` : flat;
}
