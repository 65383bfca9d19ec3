import * as countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';
import type { CheckpointRel } from '../../engine';
import type { RemoteCheckpoint } from '../remote/provider-adapter';
import type { TrackingResult } from '../tracking-provider';
import { carrierFromShip24Courier, firstCourierCode } from './ship24-carriers';
import { mapShip24Status } from './ship24-statuses';
import { lenientProviderInstant, providerInstant } from '../remote/provider-dates';

countries.registerLocale(en);

/**
 * Maps one Ship24 tracking (`{tracker, shipment, events, statistics}`: an item of
 * `data.trackings` of the results endpoints, or of a webhook's `trackings`) to our checkpoints
 * and facts. Pure.
 *
 * - checkpoint: `eventId` (stable) as id, `occurrenceDatetime` with its offset (none: read as
 *   UTC), `status` (the carrier's raw text) as message, `location` (raw text), the country when
 *   that text names one (Ship24 events carry no country field);
 * - destination carrier: events come from several couriers when a parcel is handed over; the
 *   courier of the newest event, when it differs from the oldest event's, is the destination
 *   carrier (its events `rel = destination`, the first courier's `origin`);
 * - expected delivery: the courier's window (its end), else Ship24's estimate.
 */
export function mapShip24Tracking(
  tracking: Record<string, unknown>,
  requestedCarrier: string | null,
): TrackingResult {
  const tracker = record(tracking.tracker);
  const shipment = record(tracking.shipment);
  const trackerCourier = firstCourierCode(tracker?.courierCode);
  const events = (Array.isArray(tracking.events) ? tracking.events : [])
    .map(record)
    .filter((e): e is Record<string, unknown> => e !== null)
    .map((event) => ({ event, date: providerInstant(event.occurrenceDatetime) }))
    .filter((e): e is { event: Record<string, unknown>; date: Date } => e.date !== null)
    .sort((a, b) => a.date.getTime() - b.date.getTime());

  const couriers = events.map((e) => text(e.event.courierCode)).filter((c) => c !== null);
  const originCourier = couriers[0] ?? trackerCourier;
  const lastCourier = couriers[couriers.length - 1] ?? null;
  const handover = lastCourier !== null && originCourier !== null && lastCourier !== originCourier;
  const fallbackCarrier = carrierFromShip24Courier(trackerCourier) ?? requestedCarrier;

  const checkpoints: RemoteCheckpoint[] = [];
  for (const { event, date } of events) {
    const eventId = text(event.eventId);
    if (eventId === null) continue;
    const courier = text(event.courierCode) ?? originCourier;
    const { status, rawStatus } = mapShip24Status(event.statusMilestone, event.statusCode);
    const rel: CheckpointRel | null = handover
      ? courier === originCourier
        ? 'origin'
        : 'destination'
      : null;
    const location = text(event.location);
    checkpoints.push({
      externalId: `ship24:${eventId}`,
      checkpointDate: date,
      status,
      rawStatus,
      info: text(event.status) ?? '',
      location,
      countryIso2: countryInLocation(location),
      carrierCode: carrierFromShip24Courier(courier) ?? fallbackCarrier ?? courier ?? '',
      rel,
    });
  }

  const delivery = record(shipment?.delivery);
  const window = record(delivery?.courierEstimatedDeliveryDate);
  return {
    checkpoints,
    facts: {
      destinationCarrier: handover ? carrierFromShip24Courier(lastCourier) : null,
      originCountryIso2: countryIso2(shipment?.originCountryCode),
      destinationCountryIso2: countryIso2(shipment?.destinationCountryCode),
      expectedDeliveryDate:
        providerInstant(window?.to) ??
        providerInstant(window?.from) ??
        lenientProviderInstant(delivery?.estimatedDeliveryDate),
    },
  };
}

/** The tracking number of a Ship24 tracking (the tracker's, which is the one we registered). */
export function ship24TrackingNumber(tracking: Record<string, unknown>): string | null {
  return text(record(tracking.tracker)?.trackingNumber);
}

/**
 * The country a raw location names at its end: a country name ("..., Germany") or ISO alpha-3
 * anywhere last, an ISO alpha-2 only after two other parts ("NEW YORK, NY, US") since a
 * two-letter last part is as often a state ("LOS ANGELES, CA"). Null when it names none.
 */
export function countryInLocation(location: string | null): string | null {
  if (location === null) return null;
  const parts = location
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const last = parts[parts.length - 1];
  if (last === undefined) return null;
  const byName = countries.getAlpha2Code(last, 'en');
  if (byName) return byName;
  if (/^[A-Za-z]{3}$/.test(last)) return countries.alpha3ToAlpha2(last.toUpperCase()) ?? null;
  if (/^[A-Za-z]{2}$/.test(last) && parts.length >= 3) return countryIso2(last);
  return null;
}

/** ISO alpha-2 from an alpha-2 or alpha-3 code (Ship24 takes and gives both). */
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
