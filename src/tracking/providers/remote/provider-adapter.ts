import type { ProviderCheckpoint, TrackingResult } from '../tracking-provider';
import { TrackingProviderError } from '../tracking-provider-error';
import { TRACKING_PROVIDER_NAMES } from '../../../config/config-variables';

/**
 * The contract of a credentialed remote tracking source (an aggregator such as 17TRACK, or a
 * carrier's own API such as UPS). An adapter is pure protocol: it builds requests, sends them
 * through the `ProviderHttp` it is given (which owns timeouts, the shared per-credentials rate
 * limit, 429/Retry-After and 401/403 handling) and maps answers to `TrackingResult`s. It keeps
 * no state of its own: OAuth tokens go through `ctx.tokens`, registration state is the caller's.
 *
 * The application (src/tracking/providers/remote/remote-tracking.ts and the refresher) decides
 * which credentials serve a shipment, batches numbers to `maxBatchSize`, registers numbers once
 * with aggregators, stops them at a final status, and applies results and pushes through the
 * same writer as every refresh.
 */
export const PROVIDER_TYPES = TRACKING_PROVIDER_NAMES;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** One credentials record, secrets opened, `baseUrl` already defaulted to production. */
export interface ProviderCredentials {
  readonly id: string;
  readonly type: ProviderType;
  readonly baseUrl: string;
  readonly parameters: Readonly<Record<string, string | number | boolean | null | undefined>>;
  readonly secrets: Readonly<Record<string, string | null | undefined>>;
}

export interface ProviderHttpRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute URL (the adapter joins `credentials.baseUrl` and its path). */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  readonly form?: Readonly<Record<string, string>>;
  /** Statuses the adapter handles itself (e.g. 404 = unknown number); others throw. */
  readonly acceptStatuses?: readonly number[];
}

export interface ProviderHttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the answer is JSON, else the text. */
  readonly body: unknown;
}

/**
 * Outbound HTTP for adapters. Throws `TrackingProviderError.transient` (with `retryAfterMs`)
 * on 429, 5xx, timeouts and network errors, `ProviderCredentialsRejected` on 401/403, and
 * `TrackingProviderError.permanent` on other non-2xx statuses not listed in `acceptStatuses`.
 */
export interface ProviderHttp {
  request(req: ProviderHttpRequest): Promise<ProviderHttpResponse>;
}

/** OAuth access tokens cached per credentials record, renewed shortly before they expire. */
export interface ProviderTokenCache {
  get(
    credentialsId: string,
    fetch: () => Promise<{ accessToken: string; expiresInSeconds: number }>,
  ): Promise<string>;
  /** Drop a token the provider refused (the next call fetches a new one). */
  invalidate(credentialsId: string): void;
}

export interface ProviderCallContext {
  readonly credentials: ProviderCredentials;
  readonly http: ProviderHttp;
  readonly tokens: ProviderTokenCache;
  readonly now: Date;
}

export interface ProviderTrackRequest {
  readonly trackingNumber: string;
  /** Our carrier code (see src/tracking/carriers), or null when unknown. */
  readonly carrierCode: string | null;
}

/** What stopping numbers came to, per tracking number: null (stopped) or why not. */
export type StopOutcomes = Map<string, TrackingProviderError | null>;

/** What a provider answered for one number: a result, or why there is none. */
export type ProviderOutcome = TrackingResult | TrackingProviderError;

/** Checkpoints of remote providers keep the provider's own status word(s). */
export interface RemoteCheckpoint extends ProviderCheckpoint {
  /** E.g. "InTransit/InTransit_PickedUp" (17TRACK) or "OutForDelivery" (Ship24). */
  readonly rawStatus: string | null;
}

/** One update received by the push receiver, already mapped. */
export interface PushedUpdate {
  readonly trackingNumber: string;
  readonly carrierCode: string | null;
  readonly result: TrackingResult;
}

export interface PushRequest {
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The exact bytes received (signatures are computed over them). */
  readonly rawBody: Buffer;
  /** When it arrived (tokens a provider got from us expire); absent: now. */
  readonly receivedAt?: Date;
}

/**
 * Push subscriptions that are optional and lapse (a carrier API such as UPS Track Alert): the
 * numbers are polled like any other, and also subscribed where the credentials allow it, so
 * that the provider pushes their events as they happen. A number still tracked is subscribed
 * again before its subscription lapses; one the provider refused is not asked again before a
 * subscription would have lapsed.
 */
export interface PushSubscription {
  /** How long one subscription lasts at the provider. */
  readonly lifetimeMs: number;
  /** Most numbers one subscribe request carries. */
  readonly maxBatchSize: number;
  /** Whether these credentials can have this number pushed (a push secret set, a number the
   * provider's push service covers); the others are only polled. */
  accepts(credentials: ProviderCredentials, request: ProviderTrackRequest): boolean;
  /**
   * Subscribes up to `maxBatchSize` numbers; per number null (subscribed) or why not. Throws
   * what concerns the whole request (429, outage, refused credentials).
   */
  subscribe(
    ctx: ProviderCallContext,
    requests: readonly ProviderTrackRequest[],
  ): Promise<Map<string, TrackingProviderError | null>>;
}

/**
 * A provider asking our token URL for an OAuth token (client credentials, RFC 6749 4.4) to
 * authenticate its pushes with (UPS Track Alert v2).
 */
export interface PushTokenRequest {
  /** From HTTP Basic, else the form's `client_id` / `client_secret`. */
  readonly clientId: string | null;
  readonly clientSecret: string | null;
  readonly grantType: string | null;
  readonly now: Date;
}

/** The token, or the RFC 6749 error code of the refusal. */
export type PushTokenAnswer =
  | { readonly accessToken: string; readonly expiresInSeconds: number }
  | { readonly error: 'invalid_client' | 'unsupported_grant_type' };

export interface ProviderAdapter {
  readonly type: ProviderType;
  /** Default production base URL, used when the credentials give no `baseUrl`. */
  readonly defaultBaseUrl: string;
  /** Most numbers one track (and register) request may carry. */
  readonly maxBatchSize: number;
  /** Our carrier codes this provider can track; `null` means any carrier. */
  readonly carriers: readonly string[] | null;
  /**
   * The provider's documented request rate per key (requests per second), shared by every
   * node; the credentials' `requestsPerSecond` parameter overrides it. Unset: 1.
   */
  readonly requestsPerSecond?: number;
  /**
   * Aggregators: a number must be registered once (then updates come by push, with a slow poll
   * as a safety net). Answers, per tracking number, null when registered (or already was), or
   * the error that prevented it.
   */
  register?(
    ctx: ProviderCallContext,
    requests: readonly ProviderTrackRequest[],
  ): Promise<Map<string, TrackingProviderError | null>>;
  /** Current tracking of up to `maxBatchSize` numbers, keyed by tracking number. */
  track(
    ctx: ProviderCallContext,
    requests: readonly ProviderTrackRequest[],
  ): Promise<Map<string, ProviderOutcome>>;
  /**
   * Tell the provider to stop tracking numbers (a final status was reached, or the shipment
   * moved to other credentials). Answers, per tracking number, null when stopped (or nothing
   * was left to stop), or the error that prevented it; numbers the answer leaves out count as
   * stopped. A thrown error is the whole batch's. The application retries transient errors on
   * later passes (a few attempts with backoff) and gives up at a permanent one.
   */
  stop?(ctx: ProviderCallContext, requests: readonly ProviderTrackRequest[]): Promise<StopOutcomes>;
  /** Push subscriptions of numbers, for providers where they are optional and lapse. */
  readonly pushSubscription?: PushSubscription;
  /**
   * Push: providers that authenticate pushes with an OAuth token they get from us first
   * (`POST /public/tracking_webhooks/{type}/{credentialsId}/token`): checks the client and
   * issues the token their pushes carry.
   */
  issuePushToken?(credentials: ProviderCredentials, request: PushTokenRequest): PushTokenAnswer;
  /** Push: true when the request carries the provider's valid signature or secret. */
  verifyPush?(credentials: ProviderCredentials, push: PushRequest): boolean;
  /** Push: the updates a verified request carries (an unparseable body gives none). */
  parsePush?(body: unknown): PushedUpdate[];
}

/**
 * The provider refused the credentials (401/403): they are marked invalid, not retried. The
 * message becomes the credentials' `rejectionReason` and the team's notification: our own
 * words only (see TrackingProviderError); what the server said is the operator's `detail`.
 */
export class ProviderCredentialsRejected extends Error {
  override readonly name = 'ProviderCredentialsRejected';
  constructor(
    readonly provider: ProviderType,
    readonly status: number,
    message = `${provider} rejected the credentials (HTTP ${status})`,
    readonly detail: string | null = null,
  ) {
    super(message);
  }
}

/**
 * track(): the aggregator has no registration of this number (any more, e.g. it was deleted
 * there): the registration state is dropped, so the next refresh registers it again.
 */
export class ProviderNumberNotRegistered extends TrackingProviderError {
  constructor(provider: ProviderType, trackingNumber: string) {
    super(`${provider} has no registration of ${trackingNumber}`, 'transient', {
      provider,
      retryAfterMs: 60_000,
    });
  }
}
