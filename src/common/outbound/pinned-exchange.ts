import {
  request as httpRequest,
  type Agent,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, type ResolvedAddress } from './outbound-target';

/** What one pinned exchange sends (outboundGet's hops and outboundRequest share it). */
export interface PinnedRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  agent?: Agent;
}

/**
 * Sends one request connected to the address the policy checked (`pinnedLookup`: no second
 * DNS answer between check and connect) and resolves with the answer's headers.
 */
export function sendPinned(
  url: URL,
  target: ResolvedAddress,
  request: PinnedRequest,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined)
    headers['Content-Length'] = String(Buffer.byteLength(request.body));
  const options: RequestOptions = {
    method: request.method,
    lookup: pinnedLookup(target),
    signal,
    headers,
    agent: request.agent,
  };
  return new Promise((resolve, reject) => {
    const open = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = open(url, options, resolve);
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * The body, refused with `tooLarge()` (and the connection closed) as soon as it passes
 * `maxBytes`, announced or read.
 */
export function readCapped(
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
  tooLarge: () => Error,
): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => response.destroy(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
    response.on('close', () => {
      signal.removeEventListener('abort', onAbort);
      if (!response.complete) reject(new Error('the answer was cut short'));
    });
  });
}
