import { createHash } from 'node:crypto';
import * as countries from 'i18n-iso-countries';
import type { CheckpointRel } from '../../engine';
import type { RemoteCheckpoint } from '../remote/provider-adapter';
import { providerInstant } from '../remote/provider-dates';
import type { TrackingResult } from '../tracking-provider';
import { carrierFromAfterShipSlug } from './aftership-carriers';
import { mapAfterShipStatus } from './aftership-statuses';

/**
 * Maps one AfterShip 2025-01 tracking object (the flat `data` of GET/POST /trackings, an item
 * of `data.trackings`, or a webhook's `msg`) to our checkpoints and facts. Pure.
 *
 * - checkpoint date: `checkpoint_time` (carrier local time; an offset when AfterShip gives one,
 *   else read as UTC), falling back to `created_at` (always UTC);
 * - country: `country_region` is ISO alpha-3 in 2025-01 (`country_iso3` in 2024-04);
 * - destination carrier: `last_mile.slug` when it differs from the tracking's own courier;
 *   checkpoints of that slug are the destination carrier's, the others the origin's;
 * - expected delivery: the carrier's estimate, then AfterShip's latest, then its AI estimate.
 */
export function mapAfterShipTracking(
  tracking: Record<string, unknown>,
  requestedCarrier: string | null,
): TrackingResult {
  const slug = text(tracking.slug);
  const originCarrier = carrierFromAfterShipSlug(slug) ?? requestedCarrier;
  const lastMileSlug = text(record(tracking.last_mile)?.slug);
  const handover = lastMileSlug !== null && lastMileSlug !== slug;
  const destinationCarrier = handover ? carrierFromAfterShipSlug(lastMileSlug) : null;

  const checkpoints: RemoteCheckpoint[] = [];
  for (const item of Array.isArray(tracking.checkpoints) ? tracking.checkpoints : []) {
    const cp = record(item);
    if (cp === null) continue;
    const checkpointDate = providerInstant(cp.checkpoint_time) ?? providerInstant(cp.created_at);
    if (checkpointDate === null) continue;
    const cpSlug = text(cp.slug) ?? slug;
    const { status, rawStatus } = mapAfterShipStatus(cp.tag, cp.subtag);
    const rel: CheckpointRel | null = handover
      ? cpSlug === lastMileSlug
        ? 'destination'
        : 'origin'
      : null;
    checkpoints.push({
      externalId: checkpointId(cp, cpSlug),
      checkpointDate,
      status,
      rawStatus,
      info: text(cp.message) ?? text(cp.subtag_message) ?? '',
      location: text(cp.location) ?? joined(cp.city, cp.state, cp.zip),
      countryIso2: countryIso2(cp.country_region ?? cp.country_iso3),
      carrierCode: carrierFromAfterShipSlug(cpSlug) ?? originCarrier ?? cpSlug ?? '',
      rel,
    });
  }

  return {
    checkpoints,
    facts: {
      destinationCarrier,
      originCountryIso2: countryIso2(
        tracking.origin_country_region ?? tracking.origin_country_iso3,
      ),
      destinationCountryIso2: countryIso2(
        tracking.destination_country_region ??
          tracking.courier_destination_country_region ??
          tracking.destination_country_iso3,
      ),
      expectedDeliveryDate: expectedDelivery(tracking),
    },
  };
}

function expectedDelivery(tracking: Record<string, unknown>): Date | null {
  const courier = record(tracking.courier_estimated_delivery_date);
  const latest = record(tracking.latest_estimated_delivery);
  const aftership = record(tracking.aftership_estimated_delivery_date);
  const candidates = [
    courier?.estimated_delivery_date,
    courier?.estimated_delivery_date_max,
    latest?.datetime,
    latest?.datetime_max,
    aftership?.estimated_delivery_date,
    aftership?.estimated_delivery_date_max,
    tracking.expected_delivery, // 2024-04 / 2024-07 payloads
  ];
  for (const candidate of candidates) {
    const date = providerInstant(candidate);
    if (date !== null) return date;
  }
  return null;
}

/**
 * AfterShip checkpoints carry no id: the id is a digest of what identifies the event (time,
 * courier, words, place), not of what AfterShip may re-classify later (tag, subtag).
 */
function checkpointId(cp: Record<string, unknown>, slug: string | null): string {
  const key = JSON.stringify([
    text(cp.checkpoint_time) ?? text(cp.created_at),
    slug,
    text(cp.message),
    text(cp.location),
    text(cp.city),
    text(cp.zip),
  ]);
  return `aftership:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/** ISO alpha-2 from an alpha-3 (AfterShip's usual) or alpha-2 code; null when unknown. */
export function countryIso2(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  if (/^[A-Z]{3}$/.test(code)) return countries.alpha3ToAlpha2(code) ?? null;
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code) ? code : null;
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
