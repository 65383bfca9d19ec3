import { createHash } from 'node:crypto';
import type { TrackingStatusCode } from '../../statuses';
import type { RemoteCheckpoint } from '../remote/provider-adapter';
import type { TrackingResult } from '../tracking-provider';
import { lenientProviderInstant } from '../remote/provider-dates';
import { carrierOfSeventeenTrackKey } from './seventeen-track-carriers';
import { seventeenTrackStatus } from './seventeen-track-statuses';

/** The parts of a 17TRACK v2.2 `track_info` object we read (everything optional). */
export interface SeventeenTrackInfo {
  shipping_info?: {
    shipper_address?: { country?: string | null } | null;
    recipient_address?: { country?: string | null } | null;
  } | null;
  latest_status?: { status?: string | null; sub_status?: string | null } | null;
  time_metrics?: {
    estimated_delivery_date?: { from?: string | null; to?: string | null } | null;
  } | null;
  misc_info?: { local_key?: number | string | null } | null;
  tracking?: {
    providers?: Array<{
      provider?: { key?: number | string | null; name?: string | null } | null;
      events?: SeventeenTrackEvent[] | null;
    }> | null;
  } | null;
}

export interface SeventeenTrackEvent {
  time_iso?: string | null;
  time_utc?: string | null;
  description?: string | null;
  location?: string | null;
  stage?: string | null;
  /** UNCONFIRMED: per-event sub-status; read when present. */
  sub_status?: string | null;
  address?: { country?: string | null } | null;
}

/**
 * The last-mile carrier: `misc_info.local_key` (17TRACK's "local provider"), else, when several
 * providers report, the first one listed (17TRACK lists the latest carrier first). Both rules
 * are UNCONFIRMED readings of payloads; they live here only.
 */
export function lastMileKey(info: SeventeenTrackInfo, originKey: number | null): number | null {
  const local = info.misc_info?.local_key;
  const localKey = local === null || local === undefined || local === '' ? null : Number(local);
  if (localKey !== null && Number.isFinite(localKey) && localKey !== originKey) return localKey;
  const providers = info.tracking?.providers ?? [];
  if (providers.length > 1) {
    const first = Number(providers[0]?.provider?.key);
    if (Number.isFinite(first) && first !== originKey) return first;
  }
  return null;
}

/**
 * Maps a `track_info` to checkpoints and facts. Each event's status comes from its own
 * sub-status or stage; an event with neither is in_transit, except the newest one, which takes
 * the shipment's latest_status. Checkpoint ids hash the event's time, text and location, so
 * the same event pushed or polled again is the same checkpoint.
 */
export function mapTrackInfo(
  info: SeventeenTrackInfo | null | undefined,
  context: { carrierKey: number | null; carrierCode: string | null },
): TrackingResult {
  if (!info) return { checkpoints: [], facts: {} };
  const originKey = context.carrierKey;
  const destinationKey = lastMileKey(info, originKey);
  const latest = info.latest_status ?? {};
  const latestStatus = seventeenTrackStatus(latest.status, latest.sub_status);
  const events: Array<{ event: SeventeenTrackEvent; key: number | null; date: Date }> = [];
  for (const p of info.tracking?.providers ?? []) {
    const key =
      p.provider?.key === undefined || p.provider?.key === null ? null : Number(p.provider.key);
    for (const event of p.events ?? []) {
      const date = lenientProviderInstant(event.time_iso ?? event.time_utc);
      if (!date) continue;
      events.push({ event, key, date });
    }
  }
  const newest = events.reduce<number>(
    (best, e, i) => (best < 0 || e.date > events[best].date ? i : best),
    -1,
  );
  const checkpoints: RemoteCheckpoint[] = events.map(({ event, key, date }, i) => {
    const own = seventeenTrackStatus(event.stage, event.sub_status);
    const status: TrackingStatusCode =
      own ?? (i === newest && latestStatus ? latestStatus : 'in_transit');
    const rawStatus =
      event.sub_status || event.stage
        ? [event.stage, event.sub_status].filter(Boolean).join('/')
        : i === newest && latest.status
          ? [latest.status, latest.sub_status].filter(Boolean).join('/')
          : null;
    const carrier =
      carrierOfSeventeenTrackKey(key) ??
      (key === null || key === originKey ? context.carrierCode : null);
    return {
      externalId: `17track:${checkpointHash(key, event)}`,
      checkpointDate: date,
      status,
      info: (event.description ?? '').trim(),
      location: event.location?.trim() || null,
      countryIso2: iso2(event.address?.country),
      carrierCode: carrier ?? '',
      rel: destinationKey !== null && key === destinationKey ? 'destination' : 'origin',
      rawStatus,
    };
  });
  const eta = info.time_metrics?.estimated_delivery_date;
  const expected = eta?.to ?? eta?.from ?? null;
  const expectedDate = lenientProviderInstant(expected);
  return {
    checkpoints,
    facts: {
      destinationCarrier:
        destinationKey === null ? null : carrierOfSeventeenTrackKey(destinationKey),
      originCountryIso2: iso2(info.shipping_info?.shipper_address?.country),
      destinationCountryIso2: iso2(info.shipping_info?.recipient_address?.country),
      expectedDeliveryDate: expectedDate,
    },
  };
}

function checkpointHash(key: number | null, event: SeventeenTrackEvent): string {
  return createHash('sha256')
    .update(
      JSON.stringify([key, event.time_utc ?? event.time_iso, event.description, event.location]),
    )
    .digest('hex')
    .slice(0, 32);
}

function iso2(value: string | null | undefined): string | null {
  const v = value?.trim().toUpperCase();
  return v && /^[A-Z]{2}$/.test(v) ? v : null;
}
