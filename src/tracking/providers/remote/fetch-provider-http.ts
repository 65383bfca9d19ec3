import { TrackingProviderError } from '../tracking-provider-error';
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
/** Longest part of a provider's error body kept in a message (it ends up on the shipment). */
const MAX_DETAIL = 300;

export interface FetchProviderHttpOptions {
  readonly provider: ProviderType;
  /** Identifies the rate-limit budget: the credentials id, or `instance`. */
  readonly budgetKey: string;
  readonly requestsPerSecond: number;
  /** Per request, rate-limit wait included. */
  readonly timeoutMs: number;
  readonly limiter: ProviderRateLimiter;
}

/**
 * ProviderHttp over node's fetch: every request first takes a slot of the credentials' shared
 * budget, then runs under a timeout. Answers are classified once for every adapter: 429 and
 * 5xx, timeouts and network failures are transient (Retry-After honoured); 401/403 reject the
 * credentials; other non-2xx statuses are permanent unless the adapter accepts them.
 */
export class FetchProviderHttp implements ProviderHttp {
  constructor(private readonly options: FetchProviderHttpOptions) {}

  async request(req: ProviderHttpRequest): Promise<ProviderHttpResponse> {
    const { provider, timeoutMs } = this.options;
    const started = Date.now();
    await this.options.limiter.acquire(
      `${provider}:${this.options.budgetKey}`,
      this.options.requestsPerSecond,
      timeoutMs,
    );
    const url = withQuery(req.url, req.query);
    const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['Content-Type'] ??= 'application/json';
    } else if (req.form !== undefined) {
      body = new URLSearchParams(req.form).toString();
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
    }
    let response: Response;
    let text: string;
    try {
      const remaining = Math.max(1, timeoutMs - (Date.now() - started));
      response = await fetch(url, {
        method: req.method,
        headers,
        body,
        signal: AbortSignal.timeout(remaining),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      throw TrackingProviderError.transient(`${provider}: ${networkProblem(error, timeoutMs)}`, {
        provider,
        cause: error,
      });
    }
    const answer: ProviderHttpResponse = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: parseBody(text, response.headers.get('content-type')),
    };
    if (
      (response.status >= 200 && response.status < 300) ||
      req.acceptStatuses?.includes(response.status)
    ) {
      return answer;
    }
    const detail = describeBody(text);
    if (response.status === 401 || response.status === 403) {
      throw new ProviderCredentialsRejected(
        provider,
        response.status,
        `${provider} rejected the credentials (HTTP ${response.status})${detail}`,
      );
    }
    if (response.status === 429 || response.status >= 500) {
      const retryAfterMs = retryAfter(response.headers.get('retry-after'), Date.now());
      throw TrackingProviderError.transient(
        `${provider} answered HTTP ${response.status}${detail}`,
        {
          provider,
          retryAfterMs:
            retryAfterMs ?? (response.status === 429 ? DEFAULT_RETRY_AFTER_MS : undefined),
        },
      );
    }
    throw TrackingProviderError.permanent(`${provider} answered HTTP ${response.status}${detail}`, {
      provider,
    });
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

function withQuery(url: string, query: ProviderHttpRequest['query']): string {
  if (!query) return url;
  const out = new URL(url);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) out.searchParams.set(key, String(value));
  }
  return out.toString();
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

function describeBody(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '';
  return `: ${flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL)}…` : flat}`;
}

function networkProblem(error: unknown, timeoutMs: number): string {
  // An abort is a DOMException, not always an Error of this realm: look at its name.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return `unreachable (${cause?.code ?? (error instanceof Error ? error.message : String(error))})`;
}
