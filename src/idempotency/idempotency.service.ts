import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import { ApiError, BadRequestError } from '../common/errors/api-errors';
import { AppConfig } from '../config/app-config';
import { CredentialsCipher } from '../credentials/credentials-cipher';
import type { RequestReplays } from '../hydra/actions/request-replays';
import {
  isStoredStatus,
  isValidIdempotencyKey,
  REPLAYED_HEADERS,
  requestFingerprint,
  type UploadedFilePart,
} from './idempotency-request';
import { type IdempotencyScope, IdempotencyStore } from './idempotency-store';

/** A request running longer than this is taken to have died with its node: its key is freed. */
const STALE_RUNNING_SECONDS = 600;
/** Answers bigger than this are not kept (the key is given back): POST answers are small. */
const MAX_STORED_BODY = 1024 * 1024;

type Chunk = string | Buffer | Uint8Array;

/**
 * `Idempotency-Key` on every declared POST (README "API conventions"), as Stripe does it: the
 * first answer for a key is kept per caller (user and OAuth client, or the client address
 * without a token), method and path for IDEMPOTENCY_KEY_HOURS and replayed for the same
 * request with `Idempotent-Replayed: true`; another request with the key is 422, a second one
 * while the first runs is 409. Server errors (5xx) are not kept, so a retry can succeed; client
 * errors are. Works across nodes: the key's row is claimed in PostgreSQL.
 */
@Injectable()
export class Idempotency implements RequestReplays {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: IdempotencyStore,
    private readonly config: AppConfig,
    private readonly cipher: CredentialsCipher,
  ) {}

  async begin(req: Request, res: Response, principal: Principal | null): Promise<boolean> {
    const key = req.headers['idempotency-key'];
    if (key === undefined) return false;
    if (typeof key !== 'string' || !isValidIdempotencyKey(key))
      throw new BadRequestError(
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
      );
    const scope: IdempotencyScope = {
      caller: principal
        ? `user:${principal.userId}:${principal.clientId ?? ''}`
        : `address:${req.ip ?? ''}`,
      method: req.method,
      path: req.path,
      key,
    };
    const query = req.originalUrl.includes('?')
      ? req.originalUrl.slice(req.originalUrl.indexOf('?'))
      : '';
    const fingerprint = requestFingerprint({
      query,
      contentType: req.headers['content-type'],
      rawBody: (req as { rawBody?: Buffer }).rawBody,
      body: req.body,
      files: uploadedFiles(req),
    });
    // Twice at most: a key given back between the claim and the read is claimed again.
    for (let attempt = 0; attempt < 2; attempt++) {
      const id = await this.store.claim(
        this.dataSource,
        scope,
        fingerprint,
        this.config.idempotencyKeyHours,
        STALE_RUNNING_SECONDS,
      );
      if (id) {
        this.record(res, id);
        return false;
      }
      const stored = await this.store.find(this.dataSource, scope);
      if (!stored) continue;
      if (stored.fingerprint !== fingerprint)
        throw new ApiError(
          422,
          'This Idempotency-Key was used with another request (body, media type or query); use a new key.',
        );
      if (stored.status === null)
        throw new ApiError(
          409,
          'A request with this Idempotency-Key is still running; retry once it has answered.',
        );
      const body = this.openBody(stored.sealed_body);
      if (body === null) {
        // Sealed with a key this node no longer has (a finished rotation): the key is free.
        await this.store.release(this.dataSource, stored.id);
        continue;
      }
      for (const [name, value] of Object.entries(stored.headers ?? {})) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(stored.status);
      if (body.length > 0 || stored.status !== 204) res.setHeader('Content-Length', body.length);
      res.end(body);
      return true;
    }
    throw new ApiError(
      409,
      'A request with this Idempotency-Key is still running; retry once it has answered.',
    );
  }

  /** Bodies may hold a secret shown once (a new OAuth client's): sealed at rest. */
  private sealBody(body: Buffer): string | null {
    return this.cipher.sealSecrets({ body: body.toString('base64') });
  }

  private openBody(sealed: string | null): Buffer | null {
    if (sealed === null) return Buffer.alloc(0);
    try {
      return Buffer.from(this.cipher.openSecrets(sealed).body ?? '', 'base64');
    } catch {
      return null;
    }
  }

  /** Keeps what the request answers (before compression) and stores it once it is sent. */
  private record(res: Response, id: string): void {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buf =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buf.length;
      if (size <= MAX_STORED_BODY) chunks.push(buf);
    };
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: Chunk, encoding?: unknown, cb?: unknown) => {
      keep(chunk, encoding);
      return (write as (...a: unknown[]) => boolean)(chunk, encoding, cb);
    }) as Response['write'];
    let settled = false;
    // The answer is stored before its last byte leaves: a client retrying as soon as it has
    // the answer finds it stored, never still running.
    res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
      keep(chunk, encoding);
      settled = true;
      const status = res.statusCode;
      const task =
        isStoredStatus(status) && size <= MAX_STORED_BODY
          ? this.store.complete(this.dataSource, id, {
              status,
              headers: storedHeaders(res),
              sealedBody: size === 0 ? null : this.sealBody(Buffer.concat(chunks)),
            })
          : this.store.release(this.dataSource, id);
      task
        .catch((error: Error) => {
          this.logger.error({ err: error }, `Idempotency-Key not settled: ${error.message}`);
          return this.store.release(this.dataSource, id).catch(() => undefined);
        })
        .finally(() => (end as (...a: unknown[]) => Response)(chunk, encoding, cb));
      return res;
    }) as Response['end'];
    // A client gone before the answer was written: the key is free for its retry.
    res.once('close', () => {
      if (!settled) {
        settled = true;
        this.store.release(this.dataSource, id).catch(() => undefined);
      }
    });
  }
}

function storedHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** The files the multipart reader kept (`any()` gives an array, `single()` one file). */
function uploadedFiles(req: Request): UploadedFilePart[] {
  const { files, file } = req as { files?: unknown; file?: UploadedFilePart };
  if (Array.isArray(files)) return files as UploadedFilePart[];
  if (files && typeof files === 'object')
    return Object.values(files as Record<string, UploadedFilePart[]>).flat();
  return file ? [file] : [];
}
