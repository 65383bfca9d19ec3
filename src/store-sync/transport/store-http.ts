import type { IncomingHttpHeaders } from 'node:http';
import { bareHost } from '../../common/outbound/address-policy';
import {
  OutboundRequestError,
  OutboundSession,
  type OutboundResponse,
} from '../../common/outbound/outbound-request';
import type { HostLookup } from '../../common/outbound/outbound-target';
import {
  StoreAddressRefused,
  StoreAnswerInvalid,
  StoreCredentialsRejected,
  StoreRateLimited,
  StoreRequestFailed,
  StoreUnavailable,
} from '../store-errors';
import type { StorePlatformType } from '../store-platform';
import { retryAfterMs } from './retry-after';
import type { StoreTokenCache } from './store-token-cache';

/** Time as a session sees it; tests and benches may drive it. */
export interface StoreClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const SYSTEM_CLOCK: StoreClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What every store session needs from the application. */
export interface StoreHttpDeps {
  /** STORE_SYNC_ALLOWED_HOSTS: private or loopback hosts that may be reached, over http too. */
  readonly allowedHosts: readonly string[];
  /** Per request (OUTBOUND_HTTP_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /**
   * Longest wait a store's rate limit may ask for (429, rate headers, Shopify's bucket); a
   * store asking for more fails the call as rate_limited (the run resumes later). Default 2 min.
   */
  readonly maxWaitMs?: number;
  readonly clock?: StoreClock;
  /** DNS for the outbound check (tests); default the system resolver. */
  readonly lookup?: HostLookup;
  /** Tokens exchanged for client credentials, shared by sessions (Shopify). */
  readonly tokens?: StoreTokenCache;
}

/** Answers larger than this are refused (a page of 250 orders is a few MB). */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Retries of idempotent requests after a 5xx or a network failure, with backoff. */
const TRANSIENT_RETRIES = 2;
const TRANSIENT_BACKOFF_MS = 500;
/** A 429 without a usable Retry-After (or rate headers) is retried after this long. */
export const DEFAULT_RETRY_AFTER_MS = 5_000;
/** 429s in a row for one request before it fails as rate_limited. */
const MAX_CONSECUTIVE_429 = 10;

export interface StoreRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: URL;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Safe to send again after a 5xx or a network failure (reads, GraphQL queries). */
  readonly idempotent?: boolean;
  /** Statuses the caller handles itself (404 = no such order); others are errors. */
  readonly acceptStatuses?: readonly number[];
}

export interface StoreResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the answer is JSON, else the text ('' when empty). */
  readonly body: unknown;
}

/**
 * A store's rate limit as its answers describe it: how long to hold the next request, and how
 * long after a 429. The default honours Retry-After; BigCommerce reads its X-Rate-Limit-*
 * headers (bigcommerce-rate-gate.ts). Shopify's GraphQL cost bucket answers HTTP 200 and is
 * handled by its client.
 */
export interface RateGate {
  delayBeforeSend(now: number): number;
  observe(response: StoreResponse, now: number): void;
  /** For a 429: ms until a retry may succeed. */
  delayAfter429(response: StoreResponse, now: number): number;
}

export class RetryAfterGate implements RateGate {
  private blockedUntil = 0;

  delayBeforeSend(now: number): number {
    return Math.max(0, this.blockedUntil - now);
  }

  observe(): void {}

  delayAfter429(response: StoreResponse, now: number): number {
    const delay = retryAfterMs(response.headers['retry-after'], now) ?? DEFAULT_RETRY_AFTER_MS;
    this.blockedUntil = now + delay;
    return delay;
  }
}

/** What a session did, for run counts and benches. */
export interface StoreHttpStats {
  requests: number;
  /** Time spent waiting for rate limits (429, rate headers, Shopify's bucket). */
  waitedMs: number;
}

/**
 * HTTP to one store for one session, through the outbound policy (src/common/outbound): every
 * host must be a public address reached over https, unless it is in STORE_SYNC_ALLOWED_HOSTS
 * (tests, sandboxes: then private addresses and plain http too); each host is checked once and
 * its connections pinned and kept alive. Answers are classified once for every platform:
 * 401/403 reject the credentials; 429 waits as the store says (the RateGate), unless the
 * store asks for longer than `maxWaitMs` or keeps refusing, then fails as rate_limited; 5xx and network failures are retried twice
 * for idempotent requests, then fail as unavailable; other statuses fail as request_failed,
 * unless the caller accepts them. Messages never carry the store's answer body.
 */
export class StoreHttp {
  readonly clock: StoreClock;
  readonly stats: StoreHttpStats = { requests: 0, waitedMs: 0 };
  private readonly session: OutboundSession;
  private readonly allowed: ReadonlySet<string>;
  private readonly maxWaitMs: number;

  constructor(
    readonly platform: StorePlatformType,
    private readonly deps: StoreHttpDeps,
    private readonly gate: RateGate = new RetryAfterGate(),
  ) {
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.allowed = new Set(deps.allowedHosts.map(bareHost));
    this.maxWaitMs = deps.maxWaitMs ?? 120_000;
    this.session = new OutboundSession({ allowedHosts: deps.allowedHosts, lookup: deps.lookup });
  }

  get tokens(): StoreTokenCache | undefined {
    return this.deps.tokens;
  }

  /** Waits `ms` on behalf of a rate limit, unless that is longer than the session waits. */
  async wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    if (ms > this.maxWaitMs) throw new StoreRateLimited(this.platform, ms);
    this.stats.waitedMs += ms;
    await this.clock.sleep(ms);
  }

  async request(req: StoreRequest): Promise<StoreResponse> {
    this.checkScheme(req.url);
    let transientLeft = req.idempotent ? TRANSIENT_RETRIES : 0;
    let limited = 0;
    for (let attempt = 0; ; attempt++) {
      await this.wait(this.gate.delayBeforeSend(this.clock.now()));
      let raw: OutboundResponse;
      try {
        this.stats.requests++;
        raw = await this.session.request(req.url, {
          method: req.method,
          headers: {
            Accept: 'application/json',
            ...(req.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
            ...req.headers,
          },
          body: req.json !== undefined ? JSON.stringify(req.json) : undefined,
          maxBytes: MAX_ANSWER_BYTES,
          timeoutMs: this.deps.timeoutMs,
        });
      } catch (error) {
        if (!(error instanceof OutboundRequestError)) throw error;
        if (error.reason === 'refused')
          throw new StoreAddressRefused(this.platform, 'not a public internet address');
        if (error.reason === 'not_http')
          throw new StoreAddressRefused(this.platform, 'only https addresses can be called');
        if (error.reason === 'too_large')
          throw new StoreAnswerInvalid(this.platform, 'an answer larger than allowed');
        if (transientLeft-- > 0) {
          await this.clock.sleep(TRANSIENT_BACKOFF_MS * 2 ** attempt);
          continue;
        }
        throw new StoreUnavailable(this.platform, NETWORK_REASONS[error.reason]);
      }
      const response = parse(raw);
      const now = this.clock.now();
      this.gate.observe(response, now);
      const { status } = response;
      if (req.acceptStatuses?.includes(status)) return response;
      if (status >= 200 && status < 300) return response;
      if (status === 429) {
        const delay = this.gate.delayAfter429(response, now);
        if (++limited > MAX_CONSECUTIVE_429) throw new StoreRateLimited(this.platform, delay);
        await this.wait(delay);
        continue;
      }
      if (status === 401 || status === 403)
        throw new StoreCredentialsRejected(this.platform, status);
      if (status >= 500) {
        if (transientLeft-- > 0) {
          await this.clock.sleep(TRANSIENT_BACKOFF_MS * 2 ** attempt);
          continue;
        }
        throw new StoreUnavailable(this.platform, `HTTP ${status}`, status);
      }
      if (status >= 300 && status < 400)
        throw new StoreRequestFailed(
          this.platform,
          `redirected elsewhere (HTTP ${status}); check the store address`,
          status,
        );
      throw new StoreRequestFailed(this.platform, `HTTP ${status}`, status);
    }
  }

  close(): void {
    this.session.close();
  }

  /** Credentials travel in headers: plain http only to the operator's allow-listed hosts. */
  private checkScheme(url: URL): void {
    if (url.protocol === 'https:') return;
    if (url.protocol === 'http:' && this.allowed.has(bareHost(url.hostname))) return;
    throw new StoreAddressRefused(this.platform, 'only https addresses can be called');
  }
}

const NETWORK_REASONS: Record<'unresolved' | 'timeout' | 'network', string> = {
  unresolved: 'its address could not be found',
  timeout: 'no answer in time',
  network: 'it could not be reached',
};

function parse(raw: OutboundResponse): StoreResponse {
  const headers = flatHeaders(raw.headers);
  const text = raw.body.toString('utf8');
  let body: unknown = text;
  if (text !== '' && (/json/i.test(headers['content-type'] ?? '') || /^\s*[[{]/.test(text))) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  return { status: raw.status, headers, body };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
