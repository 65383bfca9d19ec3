import type { TrackingFacts } from '../../engine';
import type { RemoteCheckpoint } from '../remote/provider-adapter';
import type { TrackingResult } from '../tracking-provider';
import { upsDay, upsInstant, upsLocalStamp } from './ups-dates';
import { upsRawStatus, upsStatus } from './ups-statuses';

export const UPS_CARRIER_CODE = 'ups';

/** Alternate tracking number types that name the carrier delivering the last mile. */
export const UPS_HANDOVER_NUMBER_TYPES: Readonly<Record<string, string>> = {
  USPS_PIC: 'usps', // UPS Ground Saver / SurePost handed to USPS [official example value]
};

/** Delivery date types, best first: rescheduled beats scheduled; DEL is the actual date. */
const EXPECTED_DATE_TYPES = ['RDD', 'SDD'] as const;

interface UpsAddress {
  city?: string;
  stateProvince?: string;
  postalCode?: string;
  country?: string;
  countryCode?: string;
}

interface UpsStatus {
  type?: string;
  code?: string;
  description?: string;
  statusCode?: string;
}

export interface UpsActivity {
  date?: string;
  time?: string;
  gmtDate?: string;
  gmtTime?: string;
  gmtOffset?: string;
  location?: { address?: UpsAddress };
  status?: UpsStatus;
}

export interface UpsPackage {
  trackingNumber?: string;
  activity?: UpsActivity[];
  deliveryDate?: { type?: string; date?: string }[];
  packageAddress?: { type?: string; address?: UpsAddress }[];
  alternateTrackingNumber?: { type?: string; number?: string }[];
}

export interface UpsTrackResponse {
  trackResponse?: {
    shipment?: { inquiryNumber?: string; package?: UpsPackage[]; warnings?: unknown[] }[];
  };
}

export function upsCountry(address: UpsAddress | undefined): string | null {
  const code = (address?.countryCode ?? address?.country ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

export function upsLocation(address: UpsAddress | undefined): string | null {
  const parts = [address?.city, address?.stateProvince]
    .map((p) => (p ?? '').trim())
    .filter((p) => p !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * The stable id of a UPS event: local date-time, the 2-character code and the city. Track API
 * activities and Track Alert pushes carry all three, so a pushed event and the same event
 * polled later are one checkpoint.
 */
export function upsExternalId(
  date: string | undefined,
  time: string | undefined,
  code: string | undefined,
  city: string | undefined,
): string | null {
  const stamp = upsLocalStamp(date, time);
  if (!stamp) return null;
  const place = (city ?? '').trim().toUpperCase().replace(/\s+/g, ' ');
  return `ups:${stamp}:${(code ?? '').trim().toUpperCase()}:${place}`;
}

export function upsActivityCheckpoint(activity: UpsActivity): RemoteCheckpoint | null {
  const checkpointDate = upsInstant(activity);
  const status = activity.status ?? {};
  const address = activity.location?.address;
  const externalId = upsExternalId(activity.date, activity.time, status.code, address?.city);
  if (!checkpointDate || !externalId) return null;
  return {
    externalId,
    checkpointDate,
    status: upsStatus(status),
    info: (status.description ?? '').trim(),
    location: upsLocation(address),
    countryIso2: upsCountry(address),
    carrierCode: UPS_CARRIER_CODE,
    rel: 'origin',
    rawStatus: upsRawStatus(status.type, status.code, status.statusCode),
  };
}

function expectedDelivery(pkg: UpsPackage): Date | null {
  for (const type of EXPECTED_DATE_TYPES) {
    const entry = (pkg.deliveryDate ?? []).find((d) => d.type === type);
    const day = upsDay(entry?.date);
    if (day) return day;
  }
  return null;
}

function destinationCarrier(pkg: UpsPackage): string | null {
  for (const alt of pkg.alternateTrackingNumber ?? []) {
    const carrier = UPS_HANDOVER_NUMBER_TYPES[(alt.type ?? '').toUpperCase()];
    if (carrier) return carrier;
  }
  return null;
}

function addressCountry(pkg: UpsPackage, type: string): string | null {
  const entry = (pkg.packageAddress ?? []).find((a) => (a.type ?? '').toUpperCase() === type);
  return upsCountry(entry?.address);
}

export function mapUpsPackage(pkg: UpsPackage): TrackingResult {
  const checkpoints = (pkg.activity ?? [])
    .map(upsActivityCheckpoint)
    .filter((c): c is RemoteCheckpoint => c !== null);
  const facts: TrackingFacts = {
    expectedDeliveryDate: expectedDelivery(pkg),
    destinationCarrier: destinationCarrier(pkg),
    originCountryIso2: addressCountry(pkg, 'ORIGIN'),
    destinationCountryIso2: addressCountry(pkg, 'DESTINATION'),
  };
  return { checkpoints: dedupe(checkpoints), facts };
}

/** UPS repeats an activity now and then; one checkpoint per id. */
function dedupe(checkpoints: RemoteCheckpoint[]): RemoteCheckpoint[] {
  const seen = new Map<string, RemoteCheckpoint>();
  for (const c of checkpoints) if (!seen.has(c.externalId)) seen.set(c.externalId, c);
  return [...seen.values()];
}

/** The package answering `trackingNumber` in a Track response, or null (not found). */
export function findUpsPackage(body: unknown, trackingNumber: string): UpsPackage | null {
  const shipments = (body as UpsTrackResponse | null)?.trackResponse?.shipment ?? [];
  const packages = shipments.flatMap((s) => s.package ?? []);
  const wanted = trackingNumber.toUpperCase();
  return (
    packages.find((p) => (p.trackingNumber ?? '').toUpperCase() === wanted) ?? packages[0] ?? null
  );
}
