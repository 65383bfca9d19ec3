import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';

/** Largest uploaded file by default (UPLOAD_MAX_BYTES, 10 MiB). */
export const DEFAULT_UPLOAD_MAX_BYTES = Number(process.env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024);

export interface UploadLimits {
  /** Largest file, in bytes (default UPLOAD_MAX_BYTES). */
  maxFileBytes?: number;
  /** Files per request (default 1). */
  maxFiles?: number;
}

const UPLOADS_KEY = Symbol('hydra:uploads');

/**
 * Declares that a route takes file uploads (multipart/form-data with files), with its limits.
 * Other routes read multipart forms as fields only, within BODY_LIMIT; a file there is a 400.
 */
export const AcceptsUploads = (limits: UploadLimits = {}) => SetMetadata(UPLOADS_KEY, limits);

/** `512kb`, `1mb`, `1048576` (BODY_LIMIT's syntax, already validated) in bytes. */
export function byteCount(size: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(size.trim());
  if (!m) return 1024 * 1024;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(m[1]) * unit);
}

/**
 * Reads multipart/form-data bodies (fields into `req.body`, files into `req.files`, in memory)
 * after routing and authentication: an interceptor runs after the guards, so a request that
 * is refused (401, 403, 404 for an unknown route) never has its body read, and only routes
 * declared with @AcceptsUploads take files, each within its own limits. (The file keeps its
 * old name so the imports elsewhere stay valid.)
 */
@Injectable()
export class MultipartInterceptor implements NestInterceptor {
  private readonly fieldsOnly: ReturnType<typeof multer>;
  private readonly parsers = new Map<string, ReturnType<ReturnType<typeof multer>['any']>>();
  private readonly fieldBytes: number;

  constructor(
    private readonly reflector: Reflector,
    config: AppConfig,
  ) {
    this.fieldBytes = byteCount(config.bodyLimit);
    this.fieldsOnly = multer({
      storage: multer.memoryStorage(),
      limits: { fieldSize: this.fieldBytes, fields: 200, files: 0 },
    });
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (req.is('multipart/form-data') && req.body === undefined) {
      const limits = this.reflector.getAllAndOverride<UploadLimits | undefined>(UPLOADS_KEY, [
        context.getHandler(),
        context.getClass(),
      ]);
      const parse = limits ? this.uploadParser(limits) : this.fieldsOnly.none();
      await new Promise<void>((resolve, reject) =>
        parse(req, http.getResponse<Response>(), (error?: unknown) =>
          error ? reject(error as Error) : resolve(),
        ),
      );
    }
    return next.handle();
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
