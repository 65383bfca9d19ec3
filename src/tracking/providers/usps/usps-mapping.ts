import type { RemoteCheckpoint } from '../remote/provider-adapter';
import type { TrackingResult } from '../tracking-provider';
import { uspsInstant } from './usps-dates';
import { uspsStatus } from './usps-statuses';

export const USPS_CARRIER_CODE = 'usps';

/**
 * Fields of the DETAIL answer that may carry the expected delivery, best first. USPS documents
 * none in the sources we have: these names are UNCONFIRMED (README.md).
 */
export const USPS_EXPECTED_DELIVERY_FIELDS = [
  'expectedDeliveryTimeStamp',
  'expectedDeliveryDate',
  'predictedDeliveryDate',
  'guaranteedDeliveryDate',
] as const;

export interface UspsTrackingEvent {
  eventType?: string;
  eventTimestamp?: string;
  eventCountry?: string;
  eventCity?: string;
  eventState?: string;
  eventZIP?: string;
  eventZIPCode?: string;
  eventCode?: string;
  firm?: string;
}

export interface UspsTrackingResponse {
  trackingNumber?: string;
  status?: string;
  statusCategory?: string;
  trackingEvents?: UspsTrackingEvent[];
  [field: string]: unknown;
}

/** USPS leaves the country empty for domestic events and may spell it out for foreign ones. */
function country(event: UspsTrackingEvent): string | null {
  const raw = (event.eventCountry ?? '').trim().toUpperCase();
  if (raw === '') return (event.eventCity ?? '').trim() !== '' ? 'US' : null;
  if (/^[A-Z]{2}$/.test(raw)) return raw;
  return raw === 'UNITED STATES' ? 'US' : null;
}

function location(event: UspsTrackingEvent): string | null {
  const city = (event.eventCity ?? '').trim();
  const region = [event.eventState, event.eventZIP ?? event.eventZIPCode]
    .map((p) => (p ?? '').trim())
    .filter((p) => p !== '')
    .join(' ');
  const text = [city, region].filter((p) => p !== '').join(', ');
  return text !== '' ? text : null;
}

export function uspsCheckpoint(
  event: UspsTrackingEvent,
  statusCategory: string | null,
): RemoteCheckpoint | null {
  const checkpointDate = uspsInstant(event.eventTimestamp);
  if (!checkpointDate) return null;
  const code = (event.eventCode ?? '').trim().toUpperCase();
  const info = (event.eventType ?? '').trim();
  return {
    // USPS events carry no id: timestamp, code and city are stable across polls.
    externalId: `usps:${(event.eventTimestamp ?? '').trim()}:${code}:${(event.eventCity ?? '')
      .trim()
      .toUpperCase()}`,
    checkpointDate,
    status: uspsStatus({ eventCode: code, eventType: info, statusCategory }),
    info,
    location: location(event),
    countryIso2: country(event),
    carrierCode: USPS_CARRIER_CODE,
    rel: 'origin',
    rawStatus: [code, info].filter((p) => p !== '').join(' ') || null,
  };
}

function expectedDelivery(body: UspsTrackingResponse): Date | null {
  for (const field of USPS_EXPECTED_DELIVERY_FIELDS) {
    const value = body[field];
    const date = typeof value === 'string' ? uspsInstant(value) : null;
    if (date) return date;
  }
  return null;
}

/** Events come newest first; the package's category describes the newest one only. */
export function mapUspsTracking(body: UspsTrackingResponse): TrackingResult {
  const events = body.trackingEvents ?? [];
  const newest = events
    .map((e, i) => ({ i, at: uspsInstant(e.eventTimestamp)?.getTime() ?? -Infinity }))
    .reduce((best, cur) => (cur.at > best.at ? cur : best), { i: -1, at: -Infinity }).i;
  const seen = new Map<string, RemoteCheckpoint>();
  events.forEach((event, i) => {
    const c = uspsCheckpoint(event, i === newest ? (body.statusCategory ?? null) : null);
    if (c && !seen.has(c.externalId)) seen.set(c.externalId, c);
  });
  return {
    checkpoints: [...seen.values()],
    facts: { expectedDeliveryDate: expectedDelivery(body) },
  };
}
