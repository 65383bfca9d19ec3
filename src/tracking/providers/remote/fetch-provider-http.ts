import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import {
  OUTBOUND_REFUSED_MESSAGE,
  OutboundRefusedError,
  pinnedLookup,
  resolveOutboundTarget,
  type OutboundPolicy,
} from '../../../common/outbound/outbound-target';
import { TrackingProviderError, providerDetail } from '../tracking-provider-error';
import {
  ProviderCredentialsRejected,
  type ProviderHttp,
  type ProviderHttpRequest,
  type ProviderHttpResponse,
  type ProviderType,
} from './provider-adapter';
import type { ProviderRateLimiter } from './provider-rate-limiter';

/** A 429 or 503 without Retry-After is retried after this long. */
export const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Largest answer read (decoded); a provider's batch answer is a small fraction of it. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const USER_AGENT = 'ShipmentTracking/1.0';

/**
 * Where the requests of one credentials record may go. Unset (the instance provider of
 * TRACKING_PROVIDER, the operator's CLI): anywhere. Set (a team's credentials): a URL on one
 * of `trustedOrigins` (the provider's own production server) as it is; any other goes through
 * the outbound policy (src/common/outbound: public addresses only unless allowed, the
 * connection pinned to the checked address), since the team chose it.
 */
export interface ProviderOutbound {
  readonly trustedOrigins: readonly string[];
  readonly policy: OutboundPolicy;
}

export interface FetchProviderHttpOptions {
  readonly provider: ProviderType;
  /** Identifies the rate-limit budget: the credentials id, or `instance`. */
  readonly budgetKey: string;
  readonly requestsPerSecond: number;
  /** Per request, rate-limit wait included. */
  readonly timeoutMs: number;
  readonly limiter: ProviderRateLimiter;
  readonly outbound?: ProviderOutbound;
}

/** The answer as read off the wire. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * ProviderHttp over node's http(s): every request is first checked against the credentials'
 * outbound rule (ProviderOutbound), then takes a slot of the credentials' shared budget, then
 * runs under a timeout, its answer read up to MAX_ANSWER_BYTES. Answers are classified once
 * for every adapter: 429 and 5xx, timeouts and network failures are transient (Retry-After
 * honoured); 401/403 reject the credentials; other non-2xx statuses (redirects included: they
 * are not followed) are permanent unless the adapter accepts them. Error messages are our own
 * words and the HTTP status, never the answer's text (which goes to `detail`, for operators).
 */
export class FetchProviderHttp implements ProviderHttp {
  constructor(private readonly options: FetchProviderHttpOptions) {}

  async request(req: ProviderHttpRequest): Promise<ProviderHttpResponse> {
    const { provider, timeoutMs } = this.options;
    const started = Date.now();
    const url = withQuery(req.url, req.query);
    const lookup = await this.lookupFor(url);
    await this.options.limiter.acquire(
      `${provider}:${this.options.budgetKey}`,
      this.options.requestsPerSecond,
      timeoutMs,
    );
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
      ...req.headers,
    };
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['Content-Type'] ??= 'application/json';
    } else if (req.form !== undefined) {
      body = new URLSearchParams(req.form).toString();
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
    }
    let raw: RawAnswer;
    try {
      const remaining = Math.max(1, timeoutMs - (Date.now() - started));
      raw = await send(url, {
        method: req.method,
        headers,
        body,
        lookup,
        signal: AbortSignal.timeout(remaining),
      });
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        throw TrackingProviderError.permanent(
          `${provider}: answer larger than ${MAX_ANSWER_BYTES} bytes`,
          { provider },
        );
      }
      throw TrackingProviderError.transient(`${provider}: ${networkProblem(error, timeoutMs)}`, {
        provider,
        cause: error,
        detail: providerDetail((error as { code?: unknown })?.code, (error as Error)?.message),
      });
    }
    const answer: ProviderHttpResponse = {
      status: raw.status,
      headers: raw.headers,
      body: parseBody(raw.text, raw.headers['content-type'] ?? null),
    };
    if ((raw.status >= 200 && raw.status < 300) || req.acceptStatuses?.includes(raw.status)) {
      return answer;
    }
    const detail = providerDetail(raw.text);
    if (raw.status === 401 || raw.status === 403) {
      throw new ProviderCredentialsRejected(
        provider,
        raw.status,
        `${provider} rejected the credentials (HTTP ${raw.status})`,
        detail,
      );
    }
    if (raw.status === 429 || raw.status >= 500) {
      const retryAfterMs = retryAfter(raw.headers['retry-after'], Date.now());
      throw TrackingProviderError.transient(`${provider} answered HTTP ${raw.status}`, {
        provider,
        detail,
        retryAfterMs: retryAfterMs ?? (raw.status === 429 ? DEFAULT_RETRY_AFTER_MS : undefined),
      });
    }
    throw TrackingProviderError.permanent(`${provider} answered HTTP ${raw.status}`, {
      provider,
      detail,
    });
  }

  /**
   * The socket lookup of a request: the system's for URLs the credentials may reach as they
   * are, else the address the outbound policy checked (pinned); a refusal is permanent.
   */
  private async lookupFor(url: URL): Promise<LookupFunction | undefined> {
    const { provider, outbound } = this.options;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw TrackingProviderError.permanent(`${provider}: not an http(s) URL`, { provider });
    }
    if (!outbound || outbound.trustedOrigins.includes(url.origin)) return undefined;
    try {
      return pinnedLookup(await resolveOutboundTarget(url.hostname, outbound.policy));
    } catch (error) {
      if (error instanceof OutboundRefusedError) {
        throw TrackingProviderError.permanent(`${provider}: ${OUTBOUND_REFUSED_MESSAGE}`, {
          provider,
          detail: `${error.host} is or resolves to ${error.address}`,
        });
      }
      throw TrackingProviderError.transient(`${provider}: unreachable`, {
        provider,
        cause: error,
        detail: providerDetail((error as Error).message),
      });
    }
  }
}

/** Retry-After as delay-seconds or an HTTP date, in ms from now; null when absent or invalid. */
export function retryAfter(header: string | null | undefined, now: number): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function withQuery(url: string, query: ProviderHttpRequest['query']): URL {
  const out = new URL(url);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) out.searchParams.set(key, String(value));
  }
  return out;
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return null;
  if (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function networkProblem(error: unknown, timeoutMs: number): string {
  // An abort is a DOMException, not always an Error of this realm: look at its name.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  return 'unreachable';
}

class AnswerTooLarge extends Error {}

/**
 * One exchange: the request sent with `lookup` (when given) as the socket's resolver, the
 * answer decoded (gzip, deflate, br) and read whole, at most MAX_ANSWER_BYTES of it, all
 * within `signal`.
 */
function send(
  url: URL,
  init: {
    method: string;
    headers: Record<string, string>;
    body: string | undefined;
    lookup: LookupFunction | undefined;
    signal: AbortSignal;
  },
): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const headers: Record<string, string> = {
      ...init.headers,
      'Accept-Encoding': 'gzip, deflate, br',
    };
    if (init.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(init.body));
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: init.method,
        headers,
        signal: init.signal,
        ...(init.lookup ? { lookup: init.lookup } : {}),
      },
      (res) => read(res, init.signal).then(resolve, reject),
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

function read(res: IncomingMessage, signal: AbortSignal): Promise<RawAnswer> {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  const stream: Readable = decoder ? res.pipe(decoder) : res;
  return new Promise<RawAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: unknown) => {
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      decoder?.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) fail(new AnswerTooLarge());
      else chunks.push(chunk);
    });
    stream.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve({
        status: res.statusCode ?? 0,
        headers: Object.fromEntries(
          Object.entries(res.headers).map(([k, v]) => [
            k,
            Array.isArray(v) ? v.join(', ') : (v ?? ''),
          ]),
        ),
        text: Buffer.concat(chunks).toString('utf8'),
      });
    });
    stream.on('error', fail);
    if (decoder) res.on('error', fail);
    res.on('aborted', () => fail(new Error('the answer was cut short')));
  });
}
