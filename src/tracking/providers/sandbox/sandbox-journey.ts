import type { CheckpointRel, TrackingFacts } from '../../engine';
import type { TrackingStatusCode } from '../../statuses';
import type { ProviderCheckpoint, TrackingResult } from '../tracking-provider';
import { SANDBOX_CARRIER_CODE, type SandboxNumber } from './sandbox-numbers';
import { SANDBOX_COUNTRIES, type SandboxCountry } from './sandbox-routes';
import { seededRandom, type SeededRandom } from './seeded-random';

const MINUTE_MS = 60_000;

interface Lane {
  readonly origin: SandboxCountry;
  readonly destination: SandboxCountry;
  readonly originCity: string;
  readonly destinationCity: string;
  readonly international: boolean;
}

interface Step {
  readonly key: string;
  readonly status: TrackingStatusCode;
  readonly info: string;
  readonly city: string;
  readonly country: SandboxCountry;
  readonly rel: CheckpointRel;
  /** Time since the previous step. */
  readonly gapMinutes: number;
}

/**
 * The simulated journey of a test number, ending 1 to 6 hours before `base` (the shipment's
 * creation, so that it is already there when the shipment is created and identical on every
 * refresh). Everything random comes from a PRNG seeded with the number itself.
 *
 * Outcomes the engine could otherwise only reach with time are reported explicitly:
 * 503 ends with an `expired` checkpoint 30 days after its label, and 413 with a
 * `transit_limit_exceeded` checkpoint about 60 days after pickup, so a fresh shipment shows them.
 */
export function buildSandboxJourney(
  number: SandboxNumber,
  outcome: TrackingStatusCode,
  base: Date,
): TrackingResult {
  const rng = seededRandom(number.normalized);
  const lane = chooseLane(rng, number.prefix === '500');
  const plan = fullPlan(rng, lane);
  const steps = scenario(number.prefix, plan, lane, rng);
  // 403 and unknown prefixes: the carrier knows nothing about the number.
  if (steps.length === 0) return { checkpoints: [], facts: {} };
  const endMinutes = rng.int(60, 6 * 60);

  const lastAt = base.getTime() - endMinutes * MINUTE_MS;
  const elapsed = steps.reduce((sum, s, i) => (i === 0 ? 0 : sum + s.gapMinutes), 0);
  const labelAt = lastAt - elapsed * MINUTE_MS;
  let at = labelAt;
  const checkpoints: ProviderCheckpoint[] = steps.map((step, i) => {
    if (i > 0) at += step.gapMinutes * MINUTE_MS;
    return {
      externalId: `${SANDBOX_CARRIER_CODE}:${number.normalized}:${i}:${step.key}`,
      checkpointDate: new Date(at),
      status: step.status,
      info: step.info,
      location: `${step.city}, ${step.country.iso2}`,
      countryIso2: step.country.iso2,
      carrierCode: SANDBOX_CARRIER_CODE,
      rel: step.rel,
    };
  });

  const plannedDelivery =
    labelAt + plan.reduce((sum, s, i) => (i === 0 ? 0 : sum + s.gapMinutes), 0) * MINUTE_MS;
  return { checkpoints, facts: facts(lane, outcome, plannedDelivery, base) };
}

function facts(
  lane: Lane,
  outcome: TrackingStatusCode,
  plannedDelivery: number,
  base: Date,
): TrackingFacts {
  let expectedDeliveryDate: Date | null = null;
  if (outcome === 'delivered') {
    expectedDeliveryDate = new Date(plannedDelivery);
  } else if (STILL_COMING.has(outcome)) {
    // A late parcel gets a new promise: one day after the latest news.
    expectedDeliveryDate = new Date(
      Math.max(plannedDelivery, base.getTime() + 24 * 60 * MINUTE_MS),
    );
  }
  return {
    originCountryIso2: lane.origin.iso2,
    destinationCountryIso2: lane.destination.iso2,
    destinationCarrier: SANDBOX_CARRIER_CODE,
    expectedDeliveryDate,
  };
}

const STILL_COMING: ReadonlySet<TrackingStatusCode> = new Set([
  'in_transit',
  'delivery_in_progress',
  'unsuccessful_delivery',
  'available_for_pickup',
]);

function chooseLane(rng: SeededRandom, forceInternational: boolean): Lane {
  const origin = rng.pick(SANDBOX_COUNTRIES);
  const international = forceInternational || !rng.chance(0.3);
  const destination = international
    ? rng.pick(SANDBOX_COUNTRIES.filter((c) => c !== origin))
    : origin;
  const originCity = rng.pick(origin.cities);
  const destinationCity = rng.pick(destination.cities.filter((c) => c !== originCity));
  return { origin, destination, originCity, destinationCity, international };
}

function hours(rng: SeededRandom, min: number, max: number): number {
  return rng.int(min * 60, max * 60);
}

/** Label to doorstep, every step of a normal delivery. */
function fullPlan(rng: SeededRandom, lane: Lane): Step[] {
  const { origin, destination, originCity, destinationCity, international } = lane;
  const atOrigin = (
    key: string,
    status: TrackingStatusCode,
    info: string,
    city: string,
    gap: number,
  ) => ({ key, status, info, city, country: origin, rel: 'origin', gapMinutes: gap }) as const;
  const atDestination = (
    key: string,
    status: TrackingStatusCode,
    info: string,
    city: string,
    gap: number,
  ) =>
    ({
      key,
      status,
      info,
      city,
      country: destination,
      rel: international ? 'destination' : 'origin',
      gapMinutes: gap,
    }) as const;

  const steps: Step[] = [
    atOrigin(
      'label',
      'pre_transit',
      'Shipment information received: the shipper created a label',
      originCity,
      0,
    ),
    atOrigin('pickup', 'in_transit', 'Picked up by the carrier', originCity, hours(rng, 4, 30)),
    atOrigin(
      'origin-facility',
      'in_transit',
      `Processed at the parcel center in ${originCity}`,
      originCity,
      hours(rng, 3, 12),
    ),
  ];
  if (international) {
    steps.push(
      atOrigin(
        'export-hub',
        'in_transit',
        `Arrived at ${origin.hub.facility}`,
        origin.hub.city,
        hours(rng, 6, 24),
      ),
      atOrigin(
        'export-customs',
        'in_transit',
        'Export customs clearance completed',
        origin.hub.city,
        hours(rng, 4, 20),
      ),
      atOrigin(
        'departed-origin',
        'in_transit',
        `Departed to ${destination.hub.city}`,
        origin.hub.city,
        hours(rng, 3, 12),
      ),
      atDestination(
        'import-hub',
        'in_transit',
        `Arrived at ${destination.hub.facility}`,
        destination.hub.city,
        hours(rng, 14, 60),
      ),
      atDestination(
        'import-customs',
        'in_transit',
        'Import customs clearance completed',
        destination.hub.city,
        hours(rng, 6, 48),
      ),
    );
  } else {
    steps.push(
      atDestination(
        'national-hub',
        'in_transit',
        `Arrived at ${destination.hub.facility}`,
        destination.hub.city,
        hours(rng, 8, 24),
      ),
    );
  }
  const delivered = rng.pick([
    'Delivered: left at the front door',
    'Delivered: signed for by the recipient',
    'Delivered to a neighbour',
    'Delivered to the parcel mailbox',
  ]);
  steps.push(
    atDestination(
      'departed-hub',
      'in_transit',
      `Departed from ${destination.hub.facility}`,
      destination.hub.city,
      hours(rng, 3, 12),
    ),
    atDestination(
      'local-facility',
      'in_transit',
      `Arrived at the delivery facility in ${destinationCity}`,
      destinationCity,
      hours(rng, 12, 48),
    ),
    atDestination(
      'out-for-delivery',
      'delivery_in_progress',
      'Out for delivery',
      destinationCity,
      hours(rng, 6, 14),
    ),
    atDestination('delivered', 'delivered', delivered, destinationCity, hours(rng, 2, 8)),
  );
  return steps;
}

/** The part of the plan a prefix shows, and how it ends. */
function scenario(prefix: string, plan: Step[], lane: Lane, rng: SeededRandom): Step[] {
  const upTo = (key: string) => plan.slice(0, plan.findIndex((s) => s.key === key) + 1);
  const last = (steps: Step[]) => steps[steps.length - 1];
  const then = (
    before: Step,
    key: string,
    status: TrackingStatusCode,
    info: string,
    gapMinutes: number,
  ): Step => ({ ...before, key, status, info, gapMinutes });

  switch (prefix) {
    case '403':
      return [];
    case '418':
      return upTo('label');
    case '504':
      return [
        {
          ...plan[0],
          status: 'no_info',
          info: 'Label created; the carrier has not received the parcel yet',
        },
      ];
    case '102': {
      const cut = rng.int(
        plan.findIndex((s) => s.key === 'pickup'),
        plan.findIndex((s) => s.key === 'local-facility'),
      );
      return plan.slice(0, cut + 1);
    }
    case '204':
      return upTo('out-for-delivery');
    case '200':
      return plan;
    case '410': {
      const steps = upTo('out-for-delivery');
      return [
        ...steps,
        then(
          last(steps),
          'attempt',
          'unsuccessful_delivery',
          'Delivery attempted: the recipient was not available, a notice card was left',
          hours(rng, 2, 8),
        ),
      ];
    }
    case '202': {
      const steps = upTo('local-facility');
      const point = rng.pick([
        'the post office',
        'the parcel locker at the central station',
        'the partner pickup point',
      ]);
      return [
        ...steps,
        then(
          last(steps),
          'pickup-ready',
          'available_for_pickup',
          `Ready for collection at ${point} in ${lane.destinationCity}`,
          hours(rng, 4, 20),
        ),
      ];
    }
    case '404': {
      const steps = upTo('origin-facility');
      return [
        ...steps,
        then(
          last(steps),
          'exception',
          'error',
          'Shipment exception: the address on the label could not be found',
          hours(rng, 4, 24),
        ),
      ];
    }
    case '500': {
      const steps = upTo('import-hub');
      return [
        ...steps,
        then(
          last(steps),
          'customs-hold',
          'error',
          'Held by customs: import documents or duties are required',
          hours(rng, 6, 48),
        ),
      ];
    }
    case '503':
      return [
        plan[0],
        then(
          plan[0],
          'expired',
          'expired',
          'No tracking information for 30 days: tracking has expired',
          hours(rng, 30 * 24, 30 * 24 + 12),
        ),
      ];
    case '100':
      return [
        plan[0],
        then(
          plan[0],
          'cancelled',
          'cancelled',
          'Shipment cancelled by the sender',
          hours(rng, 2, 48),
        ),
      ];
    case '302': {
      const steps = upTo('out-for-delivery');
      const failed = then(
        last(steps),
        'attempt',
        'unsuccessful_delivery',
        'Delivery failed: the recipient address is unknown',
        hours(rng, 2, 8),
      );
      return [
        ...steps,
        failed,
        then(
          failed,
          'return',
          'return_to_sender',
          'Returned to sender: the parcel is on its way back',
          hours(rng, 12, 48),
        ),
      ];
    }
    case '413': {
      const steps = upTo('departed-hub');
      const delayed = then(
        last(steps),
        'delayed',
        'in_transit',
        'Delayed in transit: awaiting onward transport',
        hours(rng, 5 * 24, 12 * 24),
      );
      return [
        ...steps,
        delayed,
        then(
          delayed,
          'transit-limit',
          'transit_limit_exceeded',
          'Shipment delayed: in transit much longer than usual',
          hours(rng, 58 * 24, 62 * 24),
        ),
      ];
    }
    default:
      return [];
  }
}
