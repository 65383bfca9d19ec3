import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProviderCredentials, PushedUpdate, PushRequest } from '../remote/provider-adapter';
import { carrierFromAfterShipSlug } from './aftership-carriers';
import { mapAfterShipTracking, record, text } from './aftership-tracking';

/** The header AfterShip signs webhook deliveries with. */
export const AFTERSHIP_SIGNATURE_HEADER = 'aftership-hmac-sha256';
/** Webhook events whose `msg` is a tracking object (2025-01 webhook specification). */
const TRACKING_EVENTS = new Set(['tracking_update', 'edd_revise']);

/** base64(HMAC-SHA256(key = the webhook secret, message = the raw body)). */
export function afterShipSignature(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** True when the delivery carries AfterShip's signature made with the credentials' secret. */
export function verifyAfterShipPush(credentials: ProviderCredentials, push: PushRequest): boolean {
  const secret = credentials.secrets.webhookSecret;
  const given = push.headers[AFTERSHIP_SIGNATURE_HEADER];
  if (!secret || !given) return false;
  const expected = Buffer.from(afterShipSignature(secret, push.rawBody));
  const actual = Buffer.from(given.trim());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** `{ts, event, event_id, msg: <tracking>}` -> the update of that tracking; others: none. */
export function parseAfterShipPush(body: unknown): PushedUpdate[] {
  const delivery = record(body);
  const tracking = record(delivery?.msg);
  const event = text(delivery?.event);
  const trackingNumber = text(tracking?.tracking_number);
  if (tracking === null || trackingNumber === null) return [];
  if (event !== null && !TRACKING_EVENTS.has(event)) return [];
  return [
    {
      trackingNumber,
      carrierCode: carrierFromAfterShipSlug(tracking.slug),
      result: mapAfterShipTracking(tracking, null),
    },
  ];
}
