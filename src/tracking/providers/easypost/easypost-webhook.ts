import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProviderCredentials, PushedUpdate, PushRequest } from '../remote/provider-adapter';
import { carrierFromEasyPost } from './easypost-carriers';
import { mapEasyPostTracker, record, text } from './easypost-tracker';

/** The header EasyPost signs webhook Events with (official name). */
export const EASYPOST_SIGNATURE_HEADER = 'x-hmac-signature';

/**
 * `hmac-sha256-hex=<hex>`, hex = HMAC-SHA256(key = the webhook secret NFKD-normalised as
 * UTF-8, message = the raw body): the format EasyPost's own clients verify (3p verifiers
 * mirroring them; see README).
 */
export function easyPostSignature(secret: string, rawBody: Buffer | string): string {
  const key = Buffer.from(secret.normalize('NFKD'), 'utf8');
  return `hmac-sha256-hex=${createHmac('sha256', key).update(rawBody).digest('hex')}`;
}

export function verifyEasyPostPush(credentials: ProviderCredentials, push: PushRequest): boolean {
  const secret = credentials.secrets.webhookSecret;
  const given = push.headers[EASYPOST_SIGNATURE_HEADER];
  if (!secret || !given) return false;
  const expected = Buffer.from(easyPostSignature(secret, push.rawBody));
  const actual = Buffer.from(given.trim().toLowerCase());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** An Event `tracker.created` / `tracker.updated` -> the update of its `result` tracker. */
export function parseEasyPostPush(body: unknown): PushedUpdate[] {
  const event = record(body);
  const description = text(event?.description);
  const tracker = record(event?.result);
  const trackingNumber = text(tracker?.tracking_code);
  if (description === null || !description.startsWith('tracker.')) return [];
  if (tracker === null || trackingNumber === null) return [];
  return [
    {
      trackingNumber,
      carrierCode: carrierFromEasyPost(tracker.carrier),
      result: mapEasyPostTracker(tracker, null),
    },
  ];
}
