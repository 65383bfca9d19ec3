import { createHash } from 'node:crypto';
import { normalizeCountryIso2 } from '../../engine';
import type { CheckpointRel } from '../../engine';
import type { RemoteCheckpoint } from '../remote/provider-adapter';
import { providerInstant } from '../remote/provider-dates';
import type { TrackingResult } from '../tracking-provider';
import { carrierFromEasyPost } from './easypost-carriers';
import { mapEasyPostStatus } from './easypost-statuses';

/**
 * Maps one EasyPost Tracker object (from /v2/trackers, or an Event's `result`) to our
 * checkpoints and facts. Pure.
 *
 * - checkpoint: each of `tracking_details` (`datetime` ISO 8601 with its offset, `message`,
 *   `tracking_location` city/state/zip and ISO2 `country`, `status`/`status_detail`);
 *   EasyPost details have no id: the id is a digest of time, message and place;
 * - destination carrier: a detail whose `source` names another carrier than the tracker's
 *   (e.g. USPS scans on a DHL eCommerce tracker) is the destination carrier's; the newest
 *   such source is the destination carrier;
 * - expected delivery: `est_delivery_date`, else the carrier detail's local date.
 */
export function mapEasyPostTracker(
  tracker: Record<string, unknown>,
  requestedCarrier: string | null,
): TrackingResult {
  const trackerCarrier = carrierFromEasyPost(tracker.carrier) ?? requestedCarrier;
  const details = (Array.isArray(tracker.tracking_details) ? tracker.tracking_details : [])
    .map(record)
    .filter((d): d is Record<string, unknown> => d !== null)
    .map((detail) => ({ detail, date: providerInstant(detail.datetime) }))
    .filter((d): d is { detail: Record<string, unknown>; date: Date } => d.date !== null)
    .sort((a, b) => a.date.getTime() - b.date.getTime());

  const carrierOf = (detail: Record<string, unknown>) =>
    carrierFromEasyPost(detail.source) ?? trackerCarrier;
  const lastMile = [...details]
    .reverse()
    .map(({ detail }) => carrierOf(detail))
    .find((c) => c !== null && trackerCarrier !== null && c !== trackerCarrier);
  const handover = lastMile !== undefined && lastMile !== null;

  const checkpoints: RemoteCheckpoint[] = details.map(({ detail, date }) => {
    const place = record(detail.tracking_location);
    const carrier = carrierOf(detail);
    const { status, rawStatus } = mapEasyPostStatus(detail.status, detail.status_detail);
    const rel: CheckpointRel | null = handover
      ? carrier === trackerCarrier
        ? 'origin'
        : 'destination'
      : null;
    return {
      externalId: detailId(detail, place),
      checkpointDate: date,
      status,
      rawStatus,
      info: text(detail.message) ?? text(detail.description) ?? '',
      location: joined(place?.city, place?.state, place?.zip),
      countryIso2: normalizeCountryIso2(text(place?.country)),
      carrierCode: carrier ?? text(detail.source) ?? text(tracker.carrier) ?? '',
      rel,
    };
  });

  const carrierDetail = record(tracker.carrier_detail);
  return {
    checkpoints,
    facts: {
      destinationCarrier: handover ? lastMile : null,
      originCountryIso2: normalizeCountryIso2(
        text(record(carrierDetail?.origin_tracking_location)?.country),
      ),
      destinationCountryIso2: normalizeCountryIso2(
        text(record(carrierDetail?.destination_tracking_location)?.country),
      ),
      expectedDeliveryDate:
        providerInstant(tracker.est_delivery_date) ??
        providerInstant(carrierDetail?.est_delivery_date_local),
    },
  };
}

function detailId(detail: Record<string, unknown>, place: Record<string, unknown> | null): string {
  const key = JSON.stringify([
    text(detail.datetime),
    text(detail.message),
    text(place?.city),
    text(place?.state),
    text(place?.zip),
    text(place?.country),
  ]);
  return `easypost:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

export function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function joined(...parts: unknown[]): string | null {
  const words = parts.map(text).filter((p): p is string => p !== null);
  return words.length > 0 ? words.join(', ') : null;
}
