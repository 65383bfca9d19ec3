import type { RemoteCheckpoint } from '../remote/provider-adapter';
import type { TrackingResult } from '../tracking-provider';
import { TrackingProviderError, providerDetail } from '../tracking-provider-error';
import { fedexInstant } from './fedex-dates';
import { FEDEX_HANDOVER_CODES, fedexStatus } from './fedex-statuses';

export const FEDEX_CARRIER_CODE = 'fedex';

/** Date types that give the expected delivery, best first. */
export const FEDEX_EXPECTED_DATE_TYPES = ['ESTIMATED_DELIVERY', 'APPOINTMENT_DELIVERY'] as const;
/** The promised date, used when FedEx gives no estimate. */
const COMMITMENT = 'COMMITMENT';

interface FedexLocation {
  city?: string;
  stateOrProvinceCode?: string;
  postalCode?: string;
  countryCode?: string;
}

export interface FedexScanEvent {
  date?: string;
  eventType?: string;
  eventDescription?: string;
  derivedStatusCode?: string;
  derivedStatus?: string;
  exceptionCode?: string;
  exceptionDescription?: string;
  scanLocation?: FedexLocation;
  locationId?: string;
}

export interface FedexTrackResult {
  trackingNumberInfo?: { trackingNumber?: string };
  latestStatusDetail?: { code?: string; derivedCode?: string; description?: string };
  dateAndTimes?: { type?: string; dateTime?: string }[];
  scanEvents?: FedexScanEvent[];
  estimatedDeliveryTimeWindow?: { window?: { begins?: string; ends?: string } };
  error?: { code?: string; message?: string };
}

export interface FedexTrackResponse {
  output?: {
    completeTrackResults?: { trackingNumber?: string; trackResults?: FedexTrackResult[] }[];
  };
}

function location(loc: FedexLocation | undefined): string | null {
  const parts = [loc?.city, loc?.stateOrProvinceCode]
    .map((p) => (p ?? '').trim())
    .filter((p) => p !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

function country(loc: FedexLocation | undefined): string | null {
  const code = (loc?.countryCode ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

export function fedexCheckpoint(event: FedexScanEvent): RemoteCheckpoint | null {
  const checkpointDate = fedexInstant(event.date);
  if (!checkpointDate) return null;
  const type = (event.eventType ?? '').trim().toUpperCase();
  const place = event.locationId?.trim() || event.scanLocation?.city?.trim().toUpperCase() || '';
  const info = [event.eventDescription, event.exceptionDescription]
    .map((p) => (p ?? '').trim())
    .filter((p) => p !== '')
    .join(': ');
  return {
    // FedEx events carry no id: the raw local date-time, the code and the place are stable.
    externalId: `fedex:${(event.date ?? '').trim()}:${type}:${place}`,
    checkpointDate,
    status: fedexStatus(type, event.derivedStatusCode),
    info,
    location: location(event.scanLocation),
    countryIso2: country(event.scanLocation),
    carrierCode: FEDEX_CARRIER_CODE,
    rel: 'origin',
    rawStatus:
      [type, (event.derivedStatusCode ?? '').trim()].filter((p) => p !== '').join('/') || null,
  };
}

function expectedDelivery(result: FedexTrackResult): Date | null {
  const dates = result.dateAndTimes ?? [];
  const of = (type: string) => fedexInstant(dates.find((d) => d.type === type)?.dateTime);
  for (const type of FEDEX_EXPECTED_DATE_TYPES) {
    const date = of(type);
    if (date) return date;
  }
  const window = result.estimatedDeliveryTimeWindow?.window;
  return fedexInstant(window?.ends) ?? fedexInstant(window?.begins) ?? of(COMMITMENT);
}

function destinationCarrier(events: readonly FedexScanEvent[]): string | null {
  for (const e of events) {
    const carrier = FEDEX_HANDOVER_CODES[(e.eventType ?? '').trim().toUpperCase()];
    if (carrier) return carrier;
  }
  return null;
}

/** Per-number errors that only mean "FedEx has nothing on this number (yet)". */
export function isFedexNotFound(code: string | undefined): boolean {
  return /NOTFOUND|NOT\.FOUND/i.test(code ?? '');
}

export function mapFedexResult(result: FedexTrackResult): TrackingResult | TrackingProviderError {
  if (result.error?.code) {
    if (isFedexNotFound(result.error.code)) return { checkpoints: [], facts: {} };
    // Our words; FedEx's own (code, message) for the operator only.
    return TrackingProviderError.permanent('FedEx could not track the number', {
      provider: 'fedex',
      detail: providerDetail(result.error.code, result.error.message),
    });
  }
  const events = result.scanEvents ?? [];
  const seen = new Map<string, RemoteCheckpoint>();
  for (const c of events.map(fedexCheckpoint)) {
    if (c && !seen.has(c.externalId)) seen.set(c.externalId, c);
  }
  return {
    checkpoints: [...seen.values()],
    facts: {
      expectedDeliveryDate: expectedDelivery(result),
      destinationCarrier: destinationCarrier(events),
    },
  };
}

/** The answers of one Track call, by tracking number (upper-cased). */
export function fedexResultsByNumber(body: unknown): Map<string, FedexTrackResult> {
  const out = new Map<string, FedexTrackResult>();
  const complete = (body as FedexTrackResponse | null)?.output?.completeTrackResults ?? [];
  for (const entry of complete) {
    const results = entry.trackResults ?? [];
    // A reused number has several results; the first one without an error is the live one.
    const chosen = results.find((r) => !r.error?.code) ?? results[0];
    const number = (entry.trackingNumber ?? chosen?.trackingNumberInfo?.trackingNumber ?? '')
      .trim()
      .toUpperCase();
    if (chosen && number !== '' && !out.has(number)) out.set(number, chosen);
  }
  return out;
}
