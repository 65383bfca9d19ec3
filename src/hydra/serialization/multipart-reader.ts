import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { AppConfig } from '../../config/app-config';

/** Largest uploaded file by default (UPLOAD_MAX_BYTES, 10 MiB). */
export const DEFAULT_UPLOAD_MAX_BYTES = Number(process.env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024);

export interface UploadLimits {
  /** Largest file, in bytes (default UPLOAD_MAX_BYTES). */
  maxFileBytes?: number;
  /** Files per request (default 1). */
  maxFiles?: number;
}

/** `512kb`, `1mb`, `1048576` (BODY_LIMIT's syntax, already validated) in bytes. */
export function byteCount(size: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(size.trim());
  if (!m) return 1024 * 1024;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(m[1]) * unit);
}

/**
 * Reads multipart/form-data bodies (fields into `req.body`, files into `req.files`, in memory)
 * for the HydraInterceptor, after routing and authentication: a request that is refused (401,
 * 403, 404 for an unknown route) never has its body read, and only actions declared with
 * `uploads` take files, each within its own limits; the others read fields only, within
 * BODY_LIMIT (a file there is a 400).
 */
@Injectable()
export class MultipartReader {
  private readonly fieldsOnly: ReturnType<typeof multer>;
  private readonly parsers = new Map<string, ReturnType<ReturnType<typeof multer>['any']>>();
  private readonly fieldBytes: number;

  constructor(config: AppConfig) {
    this.fieldBytes = byteCount(config.bodyLimit);
    this.fieldsOnly = multer({
      storage: multer.memoryStorage(),
      limits: { fieldSize: this.fieldBytes, fields: 200, files: 0 },
    });
  }

  /** Reads the body if it is a multipart form not read yet; `uploads`: the action's limits. */
  async read(req: Request, res: Response, uploads: UploadLimits | true | undefined): Promise<void> {
    if (req.body !== undefined || !req.is('multipart/form-data')) return;
    const parse = uploads
      ? this.uploadParser(uploads === true ? {} : uploads)
      : this.fieldsOnly.none();
    await new Promise<void>((resolve, reject) =>
      parse(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve())),
    );
  }

  private uploadParser(limits: UploadLimits) {
    const fileSize = limits.maxFileBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
    const files = limits.maxFiles ?? 1;
    const key = `${fileSize}:${files}`;
    let parser = this.parsers.get(key);
    if (!parser) {
      parser = multer({
        storage: multer.memoryStorage(),
        limits: { fileSize, files, fields: 200, fieldSize: this.fieldBytes },
      }).any();
      this.parsers.set(key, parser);
    }
    return parser;
  }
}
