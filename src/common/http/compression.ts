import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { codedTag } from './entity-tag';

export type Coding = 'br' | 'gzip';

/** Answers smaller than this go uncompressed: the coding would cost more than it saves. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * The coding to answer with, from Accept-Encoding (RFC 9110 12.5.3): brotli unless the client
 * prefers gzip; `*` stands for both; q=0 refuses. null: identity.
 */
export function chooseCoding(header: string | undefined): Coding | null {
  if (!header) return null;
  const q: Record<string, number> = {};
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (!Number.isFinite(weight)) continue;
    q[name === 'x-gzip' ? 'gzip' : name] = weight;
  }
  const br = q.br ?? q['*'] ?? 0;
  const gzip = q.gzip ?? q['*'] ?? 0;
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

/** Text formats worth compressing (images, archives and the like are compressed already). */
export function isCompressible(contentType: unknown): boolean {
  if (typeof contentType !== 'string') return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    /^application\/(json|javascript|xml|x-www-form-urlencoded)$/.test(type) ||
    /\+(json|xml)$/.test(type) ||
    type === 'image/x-icon'
  );
}

function addVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  // Most answers have no Vary yet (set on every request: no list to split and join).
  if (current === undefined) {
    res.setHeader('Vary', field);
    return;
  }
  const list = String(current).split(/\s*,\s*/);
  if (list.some((v) => v === '*' || v.toLowerCase() === field.toLowerCase())) return;
  res.setHeader('Vary', [...list.filter(Boolean), field].join(', '));
}

/**
 * A 304 has no body to code: when the tag the client holds is the coded form of the current
 * one (its 200 was compressed), the 304 names that form, as the 200 did.
 */
function echoCodedTag(req: IncomingMessage, res: ServerResponse, coding: Coding): void {
  const tag = res.getHeader('ETag');
  const held = req.headers['if-none-match'];
  if (typeof tag !== 'string' || !held) return;
  const coded = codedTag(tag, coding);
  if (coded !== tag && held.includes(coded)) res.setHeader('ETag', coded);
}

type Chunk = string | Buffer | Uint8Array;
type Callback = (error?: Error | null) => void;

function bufferOf(chunk: Chunk, encoding?: BufferEncoding): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk);
}

function coder(coding: Coding): Transform {
  return coding === 'br'
    ? // Quality 4: about gzip's speed with smaller output; 11 (the default) is far too slow.
      createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
    : createGzip();
}

/**
 * Compresses answers of a text type over COMPRESSION_THRESHOLD bytes with the coding the
 * client accepts (brotli or gzip), whatever wrote them: complete bodies (JSON, HTML, the
 * OpenAPI description) and streams (CSV), whose first kilobyte is held until it shows the
 * answer is big enough. `Vary: Accept-Encoding` on every answer of such a type; never for HEAD,
 * 204, 206, 304, answers already coded or marked `no-transform`.
 */
export function compressAnswers(threshold = COMPRESSION_THRESHOLD) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const coding = chooseCoding(req.headers['accept-encoding']);
    if (!coding) {
      // Nothing to code for this client: no wrapping (it costs every request), only the Vary
      // that tells caches another client may get another answer.
      addVary(res, 'Accept-Encoding');
      return next();
    }
    const write = res.write.bind(res) as (chunk: Chunk, cb?: Callback) => boolean;
    const end = res.end.bind(res) as (chunk?: Chunk | (() => void), cb?: () => void) => void;
    let state = 'open' as 'open' | 'raw' | 'coded';
    // decide() changes it: read it through here where the compiler would narrow it.
    const now = () => state;
    let held: Buffer[] = [];
    let heldBytes = 0;
    let zip: Transform | undefined;

    const decide = (final: boolean): void => {
      if (res.statusCode === 304 && coding && !res.headersSent) {
        echoCodedTag(req, res, coding);
        addVary(res, 'Accept-Encoding');
      }
      if (res.headersSent || !isCompressible(res.getHeader('Content-Type'))) {
        state = 'raw';
        return;
      }
      addVary(res, 'Accept-Encoding');
      const status = res.statusCode;
      if (
        !coding ||
        req.method === 'HEAD' ||
        status === 204 ||
        status === 206 ||
        status === 304 ||
        res.getHeader('Content-Encoding') !== undefined ||
        res.getHeader('Content-Range') !== undefined ||
        /no-transform/i.test(String(res.getHeader('Cache-Control') ?? ''))
      ) {
        state = 'raw';
        return;
      }
      const length = res.getHeader('Content-Length');
      const size = length !== undefined ? Number(length) : final ? heldBytes : undefined;
      if (size === undefined) {
        if (heldBytes >= threshold) state = 'coded';
        return; // keep holding until the first kilobyte or the end
      }
      state = size >= threshold ? 'coded' : 'raw';
    };

    const startCoding = (): void => {
      res.removeHeader('Content-Length');
      res.setHeader('Content-Encoding', coding!);
      const tag = res.getHeader('ETag');
      if (typeof tag === 'string') res.setHeader('ETag', codedTag(tag, coding!));
      zip = coder(coding!);
      zip.on('data', (data: Buffer) => {
        if (!write(data)) zip!.pause();
      });
      zip.on('drain', () => res.emit('drain'));
      zip.on('end', () => end());
      res.on('drain', () => zip!.resume());
      res.on('close', () => zip!.destroy());
    };

    const release = (): void => {
      const chunks = held;
      held = [];
      heldBytes = 0;
      if (state === 'coded') {
        startCoding();
        for (const c of chunks) zip!.write(c);
      } else {
        for (const c of chunks) write(c);
      }
    };

    res.write = function (
      chunk: Chunk,
      encoding?: BufferEncoding | Callback,
      cb?: Callback,
    ): boolean {
      const callback = typeof encoding === 'function' ? encoding : cb;
      const enc = typeof encoding === 'string' ? encoding : undefined;
      if (state === 'open') {
        const buf = bufferOf(chunk, enc);
        held.push(buf);
        heldBytes += buf.length;
        decide(false);
        if (now() === 'open') {
          callback?.();
          return true;
        }
        release();
        callback?.();
        return now() === 'coded' ? true : !res.writableNeedDrain;
      }
      if (state === 'raw') return write(bufferOf(chunk, enc), callback);
      return zip!.write(bufferOf(chunk, enc), callback);
    } as ServerResponse['write'];

    res.end = function (
      chunk?: Chunk | (() => void),
      encoding?: BufferEncoding | (() => void),
      cb?: () => void,
    ): ServerResponse {
      let callback = cb;
      let data: Chunk | undefined;
      if (typeof chunk === 'function') callback = chunk;
      else data = chunk;
      if (typeof encoding === 'function') callback = encoding;
      const enc = typeof encoding === 'string' ? encoding : undefined;
      if (callback) res.once('finish', callback);
      const buf = data === undefined || data === null ? undefined : bufferOf(data, enc);
      if (state === 'open') {
        if (buf) {
          held.push(buf);
          heldBytes += buf.length;
        }
        decide(true);
        if (now() === 'open') state = 'raw';
        if (now() === 'raw' && held.length === 1 && !res.headersSent) {
          const only = held[0];
          held = [];
          end(only);
          return res;
        }
        release();
        if (now() === 'coded') zip!.end();
        else end();
        return res;
      }
      if (state === 'raw') end(buf);
      else if (buf) zip!.end(buf);
      else zip!.end();
      return res;
    } as ServerResponse['end'];
    next();
  };
}
