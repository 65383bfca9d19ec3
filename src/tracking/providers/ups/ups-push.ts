import { timingSafeEqual } from 'node:crypto';
import type {
  ProviderCredentials,
  PushedUpdate,
  PushRequest,
  RemoteCheckpoint,
} from '../remote/provider-adapter';
import { upsDay } from './ups-dates';
import { UPS_CARRIER_CODE, upsActivityCheckpoint } from './ups-mapping';
import { upsWebhookSecret } from './ups-settings';

/**
 * UPS Track Alert pushes one event per POST. UPS authenticates with the opaque `credential`
 * string given in the subscription (header `credential`, our
 * `webhookSecret`); there is no body signature. The
 * `User-Agent: UPSPubSubTrackingService` header is informative only and not trusted.
 */
export function verifyUpsPush(credentials: ProviderCredentials, push: PushRequest): boolean {
  const expected = upsWebhookSecret(credentials);
  const given = push.headers['credential'];
  if (!expected || typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface UpsTrackAlertEvent {
  trackingNumber?: string;
  localActivityDate?: string;
  localActivityTime?: string;
  gmtActivityDate?: string;
  gmtActivityTime?: string;
  activityLocation?: {
    city?: string;
    stateProvince?: string;
    postalCode?: string;
    country?: string;
  };
  activityStatus?: { type?: string; code?: string; description?: string; descriptionCode?: string };
  scheduledDeliveryDate?: string;
  actualDeliveryDate?: string;
  actualDeliveryTime?: string;
}

function one(event: UpsTrackAlertEvent): PushedUpdate | null {
  const trackingNumber = (event.trackingNumber ?? '').trim().toUpperCase();
  if (trackingNumber === '') return null;
  const status = event.activityStatus ?? {};
  // The same event read through the Track API mapping (one id and one status for both paths).
  const checkpoint: RemoteCheckpoint | null = upsActivityCheckpoint({
    date: event.localActivityDate,
    time: event.localActivityTime,
    gmtDate: event.gmtActivityDate,
    gmtTime: event.gmtActivityTime,
    location: { address: event.activityLocation },
    status: {
      type: status.type,
      code: status.code,
      description: status.description,
      statusCode: status.descriptionCode,
    },
  });
  const expectedDeliveryDate = upsDay(event.scheduledDeliveryDate);
  return {
    trackingNumber,
    carrierCode: UPS_CARRIER_CODE,
    result: {
      checkpoints: checkpoint ? [checkpoint] : [],
      // Absent facts stay unknown: a push must not erase what a poll learnt.
      facts: expectedDeliveryDate ? { expectedDeliveryDate } : {},
    },
  };
}

/** A Track Alert body is one event object; an array of them is accepted too. */
export function parseUpsPush(body: unknown): PushedUpdate[] {
  const events = Array.isArray(body) ? body : [body];
  return events
    .filter((e): e is UpsTrackAlertEvent => typeof e === 'object' && e !== null)
    .map(one)
    .filter((u): u is PushedUpdate => u !== null);
}
