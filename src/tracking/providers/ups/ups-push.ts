import type {
  ProviderCredentials,
  PushedUpdate,
  PushRequest,
  RemoteCheckpoint,
} from '../remote/provider-adapter';
import { upsDay } from './ups-dates';
import { UPS_CARRIER_CODE, upsActivityCheckpoint } from './ups-mapping';
import { validUpsPushToken } from './ups-push-token';

/**
 * UPS Track Alert (v2) pushes one event per POST, authenticated with an OAuth token UPS got
 * from our token URL (`Authorization: Bearer`, see ups-push-token.ts), `x-api-key` naming the
 * client id it used (the credentials id); there is no body signature. The
 * `User-Agent: UPSPubSubTrackingService` header is informative only and not trusted.
 */
export function verifyUpsPush(credentials: ProviderCredentials, push: PushRequest): boolean {
  const token = /^Bearer (\S+)$/i.exec(push.headers['authorization']?.trim() ?? '')?.[1];
  const apiKey = push.headers['x-api-key'];
  if (!token || (apiKey !== undefined && apiKey !== credentials.id)) return false;
  return validUpsPushToken(credentials, token, push.receivedAt ?? new Date());
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
