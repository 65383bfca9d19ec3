import { timingSafeEqual } from 'node:crypto';
import type { ProviderCredentials, PushedUpdate, PushRequest } from '../remote/provider-adapter';
import { carrierFromShip24Courier, firstCourierCode } from './ship24-carriers';
import { mapShip24Tracking, record, ship24TrackingNumber } from './ship24-tracking';

/**
 * Ship24 authenticates webhook deliveries with the account's webhook secret as a Bearer token
 * (`Authorization: Bearer <secret>`, no HMAC; official docs "webhooks/delivery").
 */
export function verifyShip24Push(credentials: ProviderCredentials, push: PushRequest): boolean {
  const secret = credentials.secrets.webhookSecret;
  const given = push.headers.authorization;
  if (!secret || !given) return false;
  const expected = Buffer.from(`Bearer ${secret}`);
  const actual = Buffer.from(given.trim());
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * `{"trackings": [{metadata, tracker, shipment, events, statistics}, ...]}`: one update per
 * tracking of topic `tracking/events` (its `events` are only the new ones; checkpoints are
 * upserted by id, so that is enough). Other topics (`tracking/pod`) carry no events to apply.
 */
export function parseShip24Push(body: unknown): PushedUpdate[] {
  const trackings = record(body)?.trackings;
  if (!Array.isArray(trackings)) return [];
  const updates: PushedUpdate[] = [];
  for (const item of trackings) {
    const tracking = record(item);
    const trackingNumber = tracking ? ship24TrackingNumber(tracking) : null;
    if (tracking === null || trackingNumber === null) continue;
    const topic = record(tracking.metadata)?.topic;
    if (topic !== undefined && topic !== 'tracking/events') continue;
    updates.push({
      trackingNumber,
      carrierCode: carrierFromShip24Courier(
        firstCourierCode(record(tracking.tracker)?.courierCode),
      ),
      result: mapShip24Tracking(tracking, null),
    });
  }
  return updates;
}
