import { Agent as HttpAgent, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import {
  OutboundLookupError,
  OutboundRefusedError,
  resolveOutboundTarget,
  type OutboundPolicy,
  type ResolvedAddress,
} from './outbound-target';
import { readCapped, sendPinned } from './pinned-exchange';

/** Why an API request to a user's host failed before an answer, for the caller to word. */
export type OutboundRequestFailure =
  | 'refused' // the host is not a public internet address
  | 'unresolved' // the host has no address
  | 'not_http' // neither http nor https
  | 'too_large' // an answer beyond `maxBytes`
  | 'timeout' // not done within `timeoutMs`
  | 'network'; // the connection failed or the answer was cut short

export class OutboundRequestError extends Error {
  override readonly name = 'OutboundRequestError';
  constructor(
    readonly reason: OutboundRequestFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface OutboundRequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  policy: OutboundPolicy;
  maxBytes: number;
  /** The whole exchange, body included. */
  timeoutMs: number;
  /**
   * Sessions keep one checked address per host (OutboundSession): the connection is pinned to
   * it, so a session resolves each host once.
   */
  target?: ResolvedAddress;
  /** Keep-alive agent of a session; without it, one connection per request. */
  agent?: HttpAgent;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One HTTP request to a host a user chose (an API of their store), under the outbound policy:
 * the host is resolved and checked (or the session's checked address reused) and the
 * connection pinned to that address. Redirects are not followed (the answer is returned as
 * is), the body is refused beyond `maxBytes`, and everything ends within `timeoutMs`. Failures
 * before an answer are OutboundRequestErrors naming their reason; any status is an answer.
 */
export async function outboundRequest(
  url: URL,
  options: OutboundRequestOptions,
): Promise<OutboundResponse> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRequestError('not_http', 'only http and https addresses can be called');
  const target = options.target ?? (await checkedTarget(url.hostname, options.policy));
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const response = await sendPinned(url, target, options, abort.signal);
    const body = await readCapped(
      response,
      options.maxBytes,
      abort.signal,
      () => new OutboundRequestError('too_large', `larger than ${options.maxBytes} bytes`),
    );
    return { status: response.statusCode ?? 0, headers: response.headers, body };
  } catch (error) {
    if (error instanceof OutboundRequestError) throw error;
    if (abort.signal.aborted) throw new OutboundRequestError('timeout', 'no answer in time');
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new OutboundRequestError('network', `the server could not be reached (${code})`);
  } finally {
    clearTimeout(timer);
  }
}

/** The address to connect to for `host`, after the policy check. */
export async function checkedTarget(
  host: string,
  policy: OutboundPolicy,
): Promise<ResolvedAddress> {
  try {
    return await resolveOutboundTarget(host, policy);
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw new OutboundRequestError('refused', 'the address is not a public internet address');
    if (error instanceof OutboundLookupError)
      throw new OutboundRequestError('unresolved', `the server could not be found (${host})`);
    throw error;
  }
}

/**
 * Several requests to the same hosts (a sync run): each host is resolved and checked once, its
 * connections pinned to that address and kept alive between requests. `close()` ends them.
 */
export class OutboundSession {
  private readonly targets = new Map<string, Promise<ResolvedAddress>>();
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 8 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 8 });

  constructor(private readonly policy: OutboundPolicy) {}

  async request(
    url: URL,
    options: Omit<OutboundRequestOptions, 'policy' | 'target' | 'agent'>,
  ): Promise<OutboundResponse> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRequestError('not_http', 'only http and https addresses can be called');
    const target = await this.target(url.hostname);
    return outboundRequest(url, {
      ...options,
      policy: this.policy,
      target,
      agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private target(host: string): Promise<ResolvedAddress> {
    const key = host.toLowerCase();
    let target = this.targets.get(key);
    if (!target) {
      target = checkedTarget(host, this.policy);
      // A failed look-up is not remembered: the next request tries again.
      target.catch(() => this.targets.delete(key));
      this.targets.set(key, target);
    }
    return target;
  }
}
