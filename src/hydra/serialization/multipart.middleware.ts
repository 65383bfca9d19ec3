import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';

const MAX_FILE_BYTES = Number(process.env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024);

/**
 * Reads multipart/form-data bodies (fields into `req.body`, files into
 * `req.files`, kept in memory up to UPLOAD_MAX_BYTES each) for every route,
 * so resources take form posts like JSON ones.
 */
@Injectable()
export class MultipartMiddleware implements NestMiddleware {
  private readonly parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_FILE_BYTES, files: 10, fields: 200 },
  }).any();

  use(req: Request, res: Response, next: NextFunction): void {
    if (!req.is('multipart/form-data')) return next();
    this.parse(req, res, next);
  }
}
