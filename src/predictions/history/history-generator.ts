import { computeTracking, DEFAULT_TRACKING_LIMITS } from '../../tracking/engine';
import type { TrackingStatusCode } from '../../tracking/statuses';
import type { ShipmentFacts } from '../contribution';
import { DAY_MS, HOUR_MS } from '../model/buckets';
import { logNormalFromMedianP90, type LogNormal } from '../model/lognormal';
import { Random } from './random';

/**
 * A delivery history drawn from known distributions: what the backtest is checked against
 * (its ground truth is the lanes' parameters), and what `npm run cli -- seed` can load into a
 * workspace (`historyRows`). Pure and seeded: the same options give the same history.
 *
 * Each parcel of a lane: label created at its creation; handed over after `handover`; scanned
 * in transit every `scanEvery` (exponential) for `transit`; then either out for delivery and
 * delivered after `lastMile`, or (with `failedAttemptRate`) a failed attempt, after which it is
 * either re-delivered (`redelivery`, then `lastMile`) or left at a pickup point; some go to a
 * pickup point directly (`lockerRate`). A pickup is collected after `collection`, or with
 * `returnRate` never, and returned after the 7-day holding period. `exceptionRate` of parcels
 * stop with an exception in transit. Stage durations are log-normal, independent.
 */
export interface LaneSpec {
  carrier: string;
  origin: string;
  destination: string;
  /** Recipients' postcodes, drawn uniformly; none: no postcode. */
  postcodes?: readonly string[];
  /** Share of the shipments (relative to the other lanes'). */
  weight: number;
  /** Creation → first scan. */
  handover: LogNormal;
  /** First scan → out for delivery (or the pickup point). */
  transit: LogNormal;
  /** Out for delivery → delivered or failed attempt. */
  lastMile: LogNormal;
  failedAttemptRate: number;
  /** Failed attempt → out for delivery again. Half of failed parcels are re-delivered. */
  redelivery: LogNormal;
  lockerRate: number;
  /** Pickup notice → collected. */
  collection: LogNormal;
  /** Of parcels at a pickup point: never collected, returned. */
  returnRate: number;
  exceptionRate: number;
  /** Share of parcels for which the carrier gives a date (from its first scan). */
  carrierDateRate: number;
  /** The carrier's date: the delivery day shifted by a normal error (days), at noon UTC. */
  carrierDateError: { biasDays: number; sdDays: number };
  /** Mean time between in-transit scans. */
  scanEveryMs: number;
}

export interface HistoryOptions {
  seed: number;
  shipments: number;
  /** Creation times are uniform over [from, to). */
  from: Date;
  to: Date;
  lanes: readonly LaneSpec[];
  /** The moment the history is seen at: later checkpoints are not there yet. Default: to + 90 days. */
  now?: Date;
}

export interface GeneratedCheckpoint {
  externalId: string;
  at: Date;
  status: TrackingStatusCode;
  info: string;
  countryIso2: string;
}

export interface GeneratedShipment extends ShipmentFacts {
  id: string;
  trackingNumber: string;
  /** Index of its lane in the options. */
  lane: number;
  outcome: 'delivered' | 'returned' | 'exception' | 'in_flight';
  /** The delivery, when it happened by `now`. */
  deliveredAt: Date | null;
  carrierDate: Date | null;
  checkpoints: GeneratedCheckpoint[];
  /** The status engine's fields at `now` (what the shipment row holds). */
  shippedAt: Date | null;
  lastStatusUpdate: Date | null;
}

const HOLDING_MS = 7 * DAY_MS;

/** Generates the history (sorted by creation). */
export function generateHistory(options: HistoryOptions): GeneratedShipment[] {
  const rng = new Random(options.seed);
  const from = options.from.getTime();
  const to = options.to.getTime();
  const now = (options.now ?? new Date(to + 90 * DAY_MS)).getTime();
  const weights = options.lanes.map((l) => l.weight);
  const out: GeneratedShipment[] = [];
  for (let i = 0; i < options.shipments; i++) {
    const lane = rng.weighted(weights);
    const createdAt = Math.floor(rng.between(from, to));
    out.push(parcel(rng, options.lanes[lane], lane, createdAt, now, `${options.seed}-${i}`));
  }
  return out.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

function parcel(
  rng: Random,
  spec: LaneSpec,
  lane: number,
  createdAt: number,
  now: number,
  tag: string,
): GeneratedShipment {
  const events: Array<{ at: number; status: TrackingStatusCode; info: string; country: string }> =
    [];
  const add = (at: number, status: TrackingStatusCode, info: string, country: string) =>
    events.push({ at: Math.round(at), status, info, country });
  const id = rng.uuid();
  const postcode = spec.postcodes?.length ? rng.pick(spec.postcodes) : null;

  add(createdAt + rng.between(0, 2 * HOUR_MS), 'pre_transit', 'Label created', spec.origin);
  const firstScan = createdAt + rng.logNormal(spec.handover);
  add(firstScan, 'in_transit', 'Picked up', spec.origin);
  const transitEnd = firstScan + rng.logNormal(spec.transit);
  const exception = rng.chance(spec.exceptionRate);
  const exceptionAt = exception ? rng.between(firstScan, transitEnd) : Infinity;
  for (
    let at = firstScan + rng.exponential(spec.scanEveryMs);
    at < Math.min(transitEnd, exceptionAt);
    at += rng.exponential(spec.scanEveryMs)
  ) {
    const crossed = (at - firstScan) / (transitEnd - firstScan) > 0.5;
    add(at, 'in_transit', 'In transit', crossed ? spec.destination : spec.origin);
  }

  let outcome: GeneratedShipment['outcome'] = 'delivered';
  let delivered: number | null = null;
  if (exception) {
    add(exceptionAt, 'error', 'Held at customs', spec.destination);
    outcome = 'exception';
  } else {
    const atPickupPoint = (at: number) => {
      add(at, 'available_for_pickup', 'Ready for pickup', spec.destination);
      if (rng.chance(spec.returnRate)) {
        add(at + HOLDING_MS, 'return_to_sender', 'Not collected, returned', spec.destination);
        outcome = 'returned';
        return null;
      }
      return at + rng.logNormal(spec.collection);
    };
    if (rng.chance(spec.lockerRate)) {
      delivered = atPickupPoint(transitEnd);
    } else {
      add(transitEnd, 'delivery_in_progress', 'Out for delivery', spec.destination);
      const attempt = transitEnd + rng.logNormal(spec.lastMile);
      if (rng.chance(spec.failedAttemptRate)) {
        add(attempt, 'unsuccessful_delivery', 'Recipient not at home', spec.destination);
        if (rng.chance(0.5)) {
          const again = attempt + rng.logNormal(spec.redelivery);
          add(again, 'delivery_in_progress', 'Out for delivery', spec.destination);
          delivered = again + rng.logNormal(spec.lastMile);
        } else {
          delivered = atPickupPoint(attempt + rng.between(HOUR_MS, 4 * HOUR_MS));
        }
      } else {
        delivered = attempt;
      }
    }
    if (delivered !== null) {
      delivered = Math.round(delivered);
      add(delivered, 'delivered', 'Delivered', spec.destination);
    }
  }

  const carrierDate =
    delivered !== null && rng.chance(spec.carrierDateRate)
      ? noonOfDay(
          delivered +
            rng.normal() * spec.carrierDateError.sdDays * DAY_MS +
            spec.carrierDateError.biasDays * DAY_MS,
        )
      : null;

  const seen = events.filter((e) => e.at <= now).sort((a, b) => a.at - b.at);
  const checkpoints = seen.map((e, n) => ({
    externalId: `gen-${tag}-${n}`,
    at: new Date(e.at),
    status: e.status,
    info: e.info,
    countryIso2: e.country,
  }));
  const tracking = computeTracking({
    createdAt: new Date(createdAt),
    trackingNumber: 'generated',
    originCarrier: spec.carrier,
    checkpoints: checkpoints.map((c) => ({
      checkpointDate: c.at,
      status: c.status,
      countryIso2: c.countryIso2,
    })),
    facts: { destinationCountryIso2: spec.destination },
    previous: null,
    now: new Date(now),
    limits: DEFAULT_TRACKING_LIMITS,
  });
  const deliveredSeen = delivered !== null && delivered <= now;
  const carrierDateSeen = carrierDate !== null && firstScan <= now ? carrierDate : null;
  return {
    id,
    trackingNumber: `GEN${tag.replace(/\D/g, '')}X${id.slice(0, 8).toUpperCase()}`,
    lane,
    outcome: outcome === 'delivered' && !deliveredSeen ? 'in_flight' : outcome,
    deliveredAt: deliveredSeen ? new Date(delivered!) : null,
    createdAt: new Date(createdAt),
    status: tracking.trackingStatus,
    checkpoints,
    carrier: spec.carrier,
    originCountry: spec.origin,
    destinationCountry: spec.destination,
    postcode,
    carrierDate: carrierDateSeen === null ? null : new Date(carrierDateSeen),
    shippedAt: tracking.shippedAt,
    lastStatusUpdate: tracking.lastStatusUpdate,
  };
}

function noonOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS + 12 * HOUR_MS;
}

const days = (median: number, p90: number) => logNormalFromMedianP90(median * DAY_MS, p90 * DAY_MS);
const hours = (median: number, p90: number) =>
  logNormalFromMedianP90(median * HOUR_MS, p90 * HOUR_MS);

/**
 * Four lanes of a shop in Germany and the United States: a fast domestic one, a cross-border
 * one, a slow international one, and a second domestic carrier; the demo data of the seeder and
 * the backtest's spec.
 */
export const DEMO_LANES: readonly LaneSpec[] = [
  {
    carrier: 'dhl',
    origin: 'DE',
    destination: 'DE',
    postcodes: ['10115', '20095', '80331', '50667', '70173'],
    weight: 4,
    handover: hours(18, 40),
    transit: hours(22, 36),
    lastMile: hours(5, 9),
    failedAttemptRate: 0.08,
    redelivery: hours(22, 30),
    lockerRate: 0.15,
    collection: days(1, 3),
    returnRate: 0.1,
    exceptionRate: 0.01,
    carrierDateRate: 0.7,
    carrierDateError: { biasDays: -0.3, sdDays: 0.7 },
    scanEveryMs: 8 * HOUR_MS,
  },
  {
    carrier: 'dhl',
    origin: 'DE',
    destination: 'FR',
    postcodes: ['75001', '69001', '13001'],
    weight: 2,
    handover: hours(18, 40),
    transit: days(2.5, 4),
    lastMile: hours(5, 10),
    failedAttemptRate: 0.1,
    redelivery: hours(24, 36),
    lockerRate: 0.1,
    collection: days(1.5, 4),
    returnRate: 0.1,
    exceptionRate: 0.02,
    carrierDateRate: 0.5,
    carrierDateError: { biasDays: -0.8, sdDays: 1.2 },
    scanEveryMs: 12 * HOUR_MS,
  },
  {
    carrier: 'ups',
    origin: 'US',
    destination: 'US',
    weight: 3,
    handover: hours(12, 30),
    transit: days(2.8, 5),
    lastMile: hours(6, 10),
    failedAttemptRate: 0.05,
    redelivery: hours(24, 30),
    lockerRate: 0.05,
    collection: days(1, 3),
    returnRate: 0.1,
    exceptionRate: 0.01,
    carrierDateRate: 0.9,
    carrierDateError: { biasDays: 0, sdDays: 0.5 },
    scanEveryMs: 10 * HOUR_MS,
  },
  {
    carrier: 'usps',
    origin: 'US',
    destination: 'CA',
    weight: 1,
    handover: hours(24, 60),
    transit: days(7, 12),
    lastMile: hours(6, 12),
    failedAttemptRate: 0.1,
    redelivery: hours(24, 48),
    lockerRate: 0.2,
    collection: days(2, 5),
    returnRate: 0.15,
    exceptionRate: 0.04,
    carrierDateRate: 0.3,
    carrierDateError: { biasDays: -1.5, sdDays: 2 },
    scanEveryMs: 20 * HOUR_MS,
  },
];

/** A `shipment` row of a generated parcel (column names), for a bulk insert. */
export interface HistoryShipmentRow {
  id: string;
  workspace_id: string;
  tracking_number: string;
  origin_carrier: string;
  tracking_status: string | null;
  created_at: string;
  updated_at: string;
  shipped_at: string | null;
  last_status_update: string | null;
  origin_country_iso2: string;
  destination_country_iso2: string;
  address_country_iso2: string;
  address_postcode: string | null;
  tracking_facts: { expectedDeliveryDate: string | null; destinationCountryIso2: string };
  expected_delivery_date: string | null;
  next_check_at: string | null;
}

/** A `tracking_checkpoint` row of a generated parcel. */
export interface HistoryCheckpointRow {
  shipment_id: string;
  workspace_id: string;
  external_id: string;
  checkpoint_date: string;
  status: string;
  info: string;
  country_iso2: string;
  carrier: string;
  source: 'provider';
}

const FINAL: ReadonlySet<string | null> = new Set([
  'delivered',
  'return_to_sender',
  'error',
  'cancelled',
  'expired',
]);

/**
 * The generated parcels as table rows of one workspace, for the seeder (phase 2 wires it to
 * `npm run cli -- seed`) or a spec: the shipment row as the tracking engine would have left it,
 * and its checkpoints.
 */
export function historyRows(
  shipments: readonly GeneratedShipment[],
  workspaceId: string,
): { shipments: HistoryShipmentRow[]; checkpoints: HistoryCheckpointRow[] } {
  const iso = (d: Date | null) => (d === null ? null : d.toISOString());
  return {
    shipments: shipments.map((s) => ({
      id: s.id,
      workspace_id: workspaceId,
      tracking_number: s.trackingNumber,
      origin_carrier: s.carrier!,
      tracking_status: s.status,
      created_at: s.createdAt.toISOString(),
      updated_at: (s.checkpoints.at(-1)?.at ?? s.createdAt).toISOString(),
      shipped_at: iso(s.shippedAt),
      last_status_update: iso(s.lastStatusUpdate),
      origin_country_iso2: s.originCountry!,
      destination_country_iso2: s.destinationCountry!,
      address_country_iso2: s.destinationCountry!,
      address_postcode: s.postcode,
      tracking_facts: {
        expectedDeliveryDate: iso(s.carrierDate),
        destinationCountryIso2: s.destinationCountry!,
      },
      expected_delivery_date: iso(s.carrierDate),
      next_check_at: FINAL.has(s.status) ? null : s.createdAt.toISOString(),
    })),
    checkpoints: shipments.flatMap((s) =>
      s.checkpoints.map((c) => ({
        shipment_id: s.id,
        workspace_id: workspaceId,
        external_id: c.externalId,
        checkpoint_date: c.at.toISOString(),
        status: c.status,
        info: c.info,
        country_iso2: c.countryIso2,
        carrier: s.carrier!,
        source: 'provider' as const,
      })),
    ),
  };
}
