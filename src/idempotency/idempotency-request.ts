import { createHash } from 'node:crypto';

/** What a key may be: 1 to 255 visible ASCII characters (a UUID, as Stripe suggests, fits). */
const KEY = /^[\x21-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return KEY.test(key);
}

/** Headers of the first answer a replay repeats (the rate-limit headers are the replay's own). */
export const REPLAYED_HEADERS = [
  'content-type',
  'location',
  'content-location',
  'link',
  'etag',
  'last-modified',
  'cache-control',
  'retry-after',
  'www-authenticate',
] as const;

/** An uploaded file as the multipart reader keeps it (multer's memory storage). */
export interface UploadedFilePart {
  fieldname: string;
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

/**
 * The request a key was first used with: its query string, media type and body bytes (the
 * parsed body where the bytes were not kept: a multipart form's fields, plus each uploaded
 * file's field, name, type and bytes), hashed. The same key with another fingerprint is a
 * client's mistake (422), never a replay.
 */
export function requestFingerprint(input: {
  query: string;
  contentType: string | undefined;
  rawBody: Buffer | undefined;
  body: unknown;
  files?: readonly UploadedFilePart[];
}): string {
  const hash = createHash('sha256');
  hash.update(input.query).update('\n');
  hash.update((input.contentType ?? '').split(';')[0].trim().toLowerCase()).update('\n');
  if (input.rawBody) hash.update(input.rawBody);
  else if (input.body !== undefined) hash.update(JSON.stringify(input.body) ?? '');
  for (const file of input.files ?? []) {
    // Lengths first, so no two different files can hash alike by shifting bytes between parts.
    const head = JSON.stringify([file.fieldname, file.originalname, file.mimetype]);
    hash.update(`\n${head.length}:${head}${file.buffer.length}:`).update(file.buffer);
  }
  return hash.digest('base64url');
}

/** Whether an answer is kept for replays: everything but server errors (a retry may succeed). */
export function isStoredStatus(status: number): boolean {
  return status < 500;
}
