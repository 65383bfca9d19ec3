import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether `header` is the base64 HMAC-SHA256 of the exact bytes received, keyed with
 * `secret` (Shopify's X-Shopify-Hmac-SHA256, WooCommerce's X-WC-Webhook-Signature). Compared
 * in constant time; no secret or no header is never a match.
 */
export function hmacSha256Base64Matches(
  secret: string | null | undefined,
  rawBody: Buffer,
  header: string | null | undefined,
): boolean {
  if (!secret || !header) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header.trim(), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The signature a store would send, for fakes and specs. */
export function hmacSha256Base64(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/**
 * Whether a shared secret sent back to us (BigCommerce's custom hook header) is ours, in
 * constant time whatever the lengths (both sides are hashed first).
 */
export function sharedSecretMatches(
  expected: string | null | undefined,
  given: string | null | undefined,
): boolean {
  if (!expected || !given) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** A short stable digest of a body, for dedup keys when a store gives no delivery id. */
export function bodyDigest(rawBody: Buffer): string {
  return createHash('sha256').update(rawBody).digest('hex').slice(0, 32);
}
