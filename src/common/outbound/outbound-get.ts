import type { IncomingMessage } from 'node:http';
import {
  OutboundRefusedError,
  resolveOutboundTarget,
  type OutboundPolicy,
} from './outbound-target';
import { readCapped, sendPinned } from './pinned-exchange';

/** Why a GET of a public web resource failed, for the caller to word. */
export type OutboundGetFailure =
  | 'refused' // a hop's host is not a public internet address
  | 'unresolved' // a hop's host has no address
  | 'not_http' // a redirect to another scheme
  | 'redirects' // more redirects than allowed
  | 'status' // a final answer other than 2xx (`status`)
  | 'too_large' // a body beyond `maxBytes`
  | 'timeout' // not done within `timeoutMs`
  | 'network'; // the connection failed or the answer was cut short

export class OutboundGetError extends Error {
  constructor(
    readonly reason: OutboundGetFailure,
    message: string,
    /** The answer's status, for `status`. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface OutboundGetOptions {
  policy: OutboundPolicy;
  headers: Record<string, string>;
  maxRedirects: number;
  maxBytes: number;
  /** The whole GET, redirects and body included. */
  timeoutMs: number;
}

/** outboundOpen's options: outboundGet's, the deadline being the caller's `signal`. */
export interface OutboundOpenOptions extends Omit<OutboundGetOptions, 'timeoutMs'> {
  /** Aborts the exchange (connection and body) when the caller's deadline passes. */
  signal: AbortSignal;
}

/** A 2xx answer whose body is still to be read (and destroyed when not wanted). */
export interface OutboundStream {
  /** Where the body comes from, after redirects. */
  url: URL;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
}

export interface OutboundAnswer {
  /** Where the body came from, after redirects. */
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * GET of a public web resource under the outbound policy: every hop's host is resolved once,
 * its addresses checked and the connection pinned to them (no DNS rebinding between check and
 * connect); redirects are followed up to `maxRedirects`, each hop checked the same way; the
 * body is refused beyond `maxBytes` (announced or read) and everything must end within
 * `timeoutMs`. Failures are OutboundGetErrors naming their reason.
 */
export async function outboundGet(
  url: string,
  options: OutboundGetOptions,
): Promise<OutboundAnswer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const opened = await outboundOpen(url, { ...options, signal: abort.signal });
    const tooLarge = () =>
      new OutboundGetError('too_large', `larger than ${options.maxBytes} bytes`);
    const body = await readCapped(opened.body, options.maxBytes, abort.signal, tooLarge).catch(
      (error: unknown) => {
        throw outboundFailure(error, abort.signal);
      },
    );
    return { url: opened.url, headers: opened.headers, body };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * outboundGet up to the answer's headers, for callers that stream the body themselves (the
 * image proxy): the same policy, redirects and failures; a body announced beyond `maxBytes` is
 * refused here, one that grows beyond is the caller's to stop. The caller owns the deadline
 * (`signal`) and destroys `body` when done.
 */
export async function outboundOpen(
  url: string,
  options: OutboundOpenOptions,
): Promise<OutboundStream> {
  try {
    let current = new URL(url);
    for (let hop = 0; hop <= options.maxRedirects; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:')
        throw new OutboundGetError('not_http', 'only http and https addresses can be fetched');
      const response = await get(current, options, options.signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        current = new URL(response.headers.location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new OutboundGetError('status', `the server answered HTTP ${status}`, status);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        response.destroy();
        throw new OutboundGetError('too_large', `larger than ${options.maxBytes} bytes`);
      }
      return { url: current, headers: response.headers, body: response };
    }
    throw new OutboundGetError('redirects', 'too many redirects');
  } catch (error) {
    throw outboundFailure(error, options.signal);
  }
}

/** Any failure of an exchange as an OutboundGetError. */
function outboundFailure(error: unknown, signal: AbortSignal): OutboundGetError {
  if (error instanceof OutboundGetError) return error;
  if (signal.aborted) return new OutboundGetError('timeout', 'no answer in time');
  const code = (error as { code?: string }).code ?? (error as Error).message;
  return new OutboundGetError('network', `the server could not be reached (${code})`);
}

async function get(
  url: URL,
  options: Pick<OutboundGetOptions, 'policy' | 'headers'>,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  let target;
  try {
    target = await resolveOutboundTarget(url.hostname, options.policy);
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw new OutboundGetError('refused', 'the address is not a public internet address');
    throw new OutboundGetError('unresolved', `the server could not be found (${url.hostname})`);
  }
  return sendPinned(url, target, { method: 'GET', headers: options.headers }, signal);
}
