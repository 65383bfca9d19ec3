import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

/** A valid 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** POST /media (multipart, field `file`) with optional form fields; returns the supertest call. */
export function upload(
  app: INestApplication,
  token: string,
  file: Buffer = PNG,
  name = 'logo.png',
  fields: Record<string, string> = {},
) {
  const req = request(app.getHttpServer())
    .post('/media')
    .set('Authorization', `Bearer ${token}`)
    .set('Accept', 'application/ld+json');
  for (const [k, v] of Object.entries(fields)) req.field(k, v);
  return req.attach('file', file, name);
}

let sequence = 0;

/** A subdomain no other test uses. */
export function uniqueSubdomain(prefix = 'shop'): string {
  sequence += 1;
  return `${prefix}-${process.pid.toString(36)}-${Date.now().toString(36)}-${sequence}`;
}
