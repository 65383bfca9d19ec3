import { computeTracking, DAY_MS, type ComputeTrackingInput } from './status-engine';
import type { EngineCheckpoint } from './tracking-input';
import type { TrackingStatusCode } from '../statuses';

const HOUR = 3_600_000;
const T0 = new Date('2025-03-01T10:00:00Z');

function at(days: number, hours = 0): Date {
  return new Date(T0.getTime() + days * DAY_MS + hours * HOUR);
}

function cp(days: number, status: TrackingStatusCode, extra: Partial<EngineCheckpoint> = {}) {
  return { checkpointDate: at(days), status, ...extra } satisfies EngineCheckpoint;
}

function run(overrides: Partial<ComputeTrackingInput> & { now: Date }) {
  return computeTracking({
    createdAt: T0,
    trackingNumber: '1Z999AA10123456784',
    originCarrier: 'ups',
    checkpoints: [],
    facts: null,
    previous: null,
    ...overrides,
  });
}

describe('computeTracking: no checkpoints', () => {
  it('has no status without a tracking number, and counts idle days', () => {
    const r = run({ trackingNumber: null, now: at(45, 3) });
    expect(r.trackingStatus).toBeNull();
    expect(r.daysInIdle).toBe(45);
    expect(r.daysInTransit).toBeNull();
    expect(r.shippedAt).toBeNull();
    expect(r.lastStatusUpdate).toBeNull();
  });

  it('treats a blank tracking number like none', () => {
    expect(run({ trackingNumber: '  ', now: at(40) }).trackingStatus).toBeNull();
  });

  it('is no_info with a tracking number, counting idle days', () => {
    const r = run({ now: at(3, 5) });
    expect(r.trackingStatus).toBe('no_info');
    expect(r.daysInIdle).toBe(3);
    expect(r.daysInTransit).toBeNull();
    expect(r.lastStatusUpdate).toEqual(at(3, 5));
  });

  it('expires exactly 30 days after creation and freezes idle days at 30', () => {
    expect(run({ now: new Date(at(30).getTime() - 1) }).trackingStatus).toBe('no_info');
    const r = run({ now: at(30) });
    expect(r.trackingStatus).toBe('expired');
    expect(r.lastStatusUpdate).toEqual(at(30));
    expect(run({ now: at(90) }).daysInIdle).toBe(30);
  });

  it('honours a configured expiry', () => {
    const limits = { expiredAfterDays: 10, transitLimitDays: 60 };
    expect(run({ now: at(10), limits }).trackingStatus).toBe('expired');
  });

  it('never gives negative counts when the clock is behind createdAt', () => {
    const r = run({ now: at(-2) });
    expect(r.daysInIdle).toBe(0);
  });
});

describe('computeTracking: status from checkpoints', () => {
  it('takes the status of the latest checkpoint whatever the input order', () => {
    const checkpoints = [cp(4, 'delivered'), cp(1, 'in_transit'), cp(0.5, 'pre_transit')];
    const r = run({ checkpoints, now: at(10) });
    expect(r.trackingStatus).toBe('delivered');
    expect(r.shippedAt).toEqual(at(1));
    expect(r.daysInTransit).toBe(3);
    expect(r.daysInIdle).toBe(1);
    expect(r.lastStatusUpdate).toEqual(at(4));
  });

  it('keeps pre_transit idle, counting from createdAt', () => {
    const r = run({ checkpoints: [cp(1, 'pre_transit')], now: at(5, 1) });
    expect(r.trackingStatus).toBe('pre_transit');
    expect(r.daysInIdle).toBe(5);
    expect(r.lastStatusUpdate).toEqual(at(1));
  });

  it('counts transit days until now while active, idle days frozen at shippedAt', () => {
    const checkpoints = [cp(2, 'pre_transit'), cp(3.5, 'in_transit'), cp(6, 'in_transit')];
    const r = run({ checkpoints, now: at(13.6) });
    expect(r.trackingStatus).toBe('in_transit');
    expect(r.daysInTransit).toBe(10);
    expect(r.daysInIdle).toBe(3);
    expect(r.lastStatusUpdate).toEqual(at(3.5));
  });

  it('stops counting at the first checkpoint of the final run', () => {
    const checkpoints = [cp(1, 'in_transit'), cp(8.2, 'delivered'), cp(9, 'delivered')];
    const r = run({ checkpoints, now: at(100) });
    expect(r.daysInTransit).toBe(7);
    expect(r.lastStatusUpdate).toEqual(at(8.2));
  });

  it('ignores late pre-shipment events once the parcel moved', () => {
    const checkpoints = [cp(1, 'in_transit'), cp(2, 'pre_transit'), cp(2.5, 'no_info')];
    const r = run({ checkpoints, now: at(3) });
    expect(r.trackingStatus).toBe('in_transit');
    expect(r.daysInTransit).toBe(2);
    expect(r.daysInIdle).toBe(1);
  });

  it('does not ship a parcel cancelled before pickup; idle stops at the cancellation', () => {
    const r = run({ checkpoints: [cp(1, 'pre_transit'), cp(4, 'cancelled')], now: at(20) });
    expect(r.trackingStatus).toBe('cancelled');
    expect(r.shippedAt).toBeNull();
    expect(r.daysInTransit).toBeNull();
    expect(r.daysInIdle).toBe(4);
  });

  it('resumes counting when an active checkpoint follows an exception', () => {
    const checkpoints = [cp(1, 'in_transit'), cp(3, 'error'), cp(5, 'in_transit')];
    expect(run({ checkpoints: checkpoints.slice(0, 2), now: at(9) }).daysInTransit).toBe(2);
    expect(run({ checkpoints, now: at(9) }).daysInTransit).toBe(8);
  });

  it('uses checkpoints dated before creation (a shipment added late)', () => {
    const checkpoints = [cp(-6, 'in_transit'), cp(-1, 'delivered')];
    const r = run({ checkpoints, now: at(1) });
    expect(r.trackingStatus).toBe('delivered');
    expect(r.daysInTransit).toBe(5);
    expect(r.daysInIdle).toBe(0);
  });

  it('ignores checkpoints with an invalid date', () => {
    const r = run({
      checkpoints: [cp(1, 'in_transit'), { checkpointDate: new Date('x'), status: 'delivered' }],
      now: at(2),
    });
    expect(r.trackingStatus).toBe('in_transit');
  });
});

describe('computeTracking: expired', () => {
  it('expires a shipment stuck in pre-shipment for 30 days', () => {
    const r = run({ checkpoints: [cp(1, 'pre_transit')], now: at(31) });
    expect(r.trackingStatus).toBe('expired');
    expect(r.daysInIdle).toBe(30);
    expect(r.lastStatusUpdate).toEqual(at(30));
  });

  it('is overridden by a later real checkpoint', () => {
    const pre = run({ checkpoints: [cp(32, 'pre_transit')], now: at(33) });
    expect(pre.trackingStatus).toBe('pre_transit');
    const moved = run({ checkpoints: [cp(35, 'in_transit')], now: at(36) });
    expect(moved.trackingStatus).toBe('in_transit');
    expect(moved.daysInIdle).toBe(35);
    expect(moved.daysInTransit).toBe(1);
  });

  it('does not expire a parcel that moved within 30 days', () => {
    const r = run({ checkpoints: [cp(20, 'in_transit')], now: at(45) });
    expect(r.trackingStatus).toBe('in_transit');
  });

  it('accepts an explicit expired checkpoint as final', () => {
    const r = run({ checkpoints: [cp(0, 'expired')], now: at(5) });
    expect(r.trackingStatus).toBe('expired');
    expect(r.daysInIdle).toBe(0);
    expect(r.daysInTransit).toBeNull();
  });
});

describe('computeTracking: transit limit', () => {
  const limits = { expiredAfterDays: 30, transitLimitDays: 20 };

  it('flags in_transit past the limit since shippedAt, and keeps counting', () => {
    const checkpoints = [cp(2, 'in_transit'), cp(10, 'in_transit')];
    expect(run({ checkpoints, limits, now: at(21.9) }).trackingStatus).toBe('in_transit');
    const r = run({ checkpoints, limits, now: at(22) });
    expect(r.trackingStatus).toBe('transit_limit_exceeded');
    expect(r.lastStatusUpdate).toEqual(at(22));
    expect(r.daysInTransit).toBe(20);
    expect(run({ checkpoints, limits, now: at(40) }).daysInTransit).toBe(38);
  });

  it('uses 60 days by default', () => {
    const checkpoints = [cp(0, 'in_transit')];
    expect(run({ checkpoints, now: at(59.9) }).trackingStatus).toBe('in_transit');
    expect(run({ checkpoints, now: at(60) }).trackingStatus).toBe('transit_limit_exceeded');
  });

  it('is overridden by a later delivered checkpoint', () => {
    const checkpoints = [cp(2, 'in_transit'), cp(30, 'delivered')];
    const r = run({ checkpoints, limits, now: at(40) });
    expect(r.trackingStatus).toBe('delivered');
    expect(r.daysInTransit).toBe(28);
  });

  it('leaves actionable statuses alone', () => {
    const checkpoints = [cp(2, 'in_transit'), cp(10, 'available_for_pickup')];
    expect(run({ checkpoints, limits, now: at(40) }).trackingStatus).toBe('available_for_pickup');
  });

  it('accepts an explicit transit_limit_exceeded checkpoint', () => {
    const checkpoints = [cp(1, 'in_transit'), cp(3, 'transit_limit_exceeded')];
    const r = run({ checkpoints, now: at(4) });
    expect(r.trackingStatus).toBe('transit_limit_exceeded');
    expect(r.daysInTransit).toBe(3);
  });
});

describe('computeTracking: lastStatusUpdate', () => {
  it('keeps the previous instant while the status is unchanged', () => {
    const previous = { trackingStatus: 'in_transit' as const, lastStatusUpdate: at(1, 2) };
    const r = run({
      checkpoints: [cp(1, 'in_transit'), cp(3, 'in_transit')],
      previous,
      now: at(4),
    });
    expect(r.lastStatusUpdate).toEqual(at(1, 2));
  });

  it('takes the date of the checkpoint that changed it', () => {
    const previous = { trackingStatus: 'in_transit' as const, lastStatusUpdate: at(1) };
    const checkpoints = [cp(1, 'in_transit'), cp(3, 'delivery_in_progress'), cp(3.2, 'delivered')];
    expect(run({ checkpoints, previous, now: at(4) }).lastStatusUpdate).toEqual(at(3.2));
  });

  it('uses now for a status removed with the tracking number', () => {
    const previous = { trackingStatus: 'no_info' as const, lastStatusUpdate: at(0) };
    const r = run({ trackingNumber: null, previous, now: at(2) });
    expect(r.trackingStatus).toBeNull();
    expect(r.lastStatusUpdate).toEqual(at(2));
  });

  it('never moves before the previously recorded change', () => {
    const previous = { trackingStatus: 'in_transit' as const, lastStatusUpdate: at(5) };
    const r = run({ checkpoints: [cp(1, 'delivered')], previous, now: at(6) });
    expect(r.lastStatusUpdate).toEqual(at(6));
  });
});

describe('computeTracking: places and facts', () => {
  it('prefers reported facts and names countries in English', () => {
    const r = run({
      checkpoints: [cp(1, 'in_transit', { countryIso2: 'CN' })],
      facts: {
        originCountryIso2: 'cn',
        destinationCountryIso2: 'DE',
        destinationCarrier: 'dhl-germany',
        expectedDeliveryDate: at(9),
      },
      now: at(2),
    });
    expect(r).toMatchObject({
      originCountryIso2: 'CN',
      originCountry: "People's Republic of China",
      destinationCountryIso2: 'DE',
      destinationCountry: 'Germany',
      destinationCarrier: 'dhl-germany',
      expectedDeliveryDate: at(9),
    });
  });

  it('derives countries and destination carrier from checkpoints', () => {
    const checkpoints = [
      cp(1, 'in_transit', { countryIso2: 'GB', rel: 'origin', carrierCode: 'royal-mail' }),
      cp(3, 'in_transit', { countryIso2: 'FR', rel: 'destination', carrierCode: 'colissimo' }),
      cp(4, 'delivered', { countryIso2: 'FR', carrierCode: 'colissimo' }),
    ];
    const r = run({ checkpoints, now: at(5) });
    expect(r.originCountryIso2).toBe('GB');
    expect(r.originCountry).toBe('United Kingdom');
    expect(r.destinationCountryIso2).toBe('FR');
    expect(r.destinationCarrier).toBe('colissimo');
    expect(r.expectedDeliveryDate).toBeNull();
  });

  it('assumes the origin carrier delivers a domestic parcel', () => {
    const checkpoints = [
      cp(1, 'in_transit', { countryIso2: 'US' }),
      cp(2, 'delivered', { countryIso2: 'US' }),
    ];
    const r = run({ checkpoints, now: at(5) });
    expect(r.destinationCountry).toBe('United States of America');
    expect(r.destinationCarrier).toBe('ups');
  });

  it('leaves unknown places null and ignores invalid country codes', () => {
    const r = run({ checkpoints: [cp(1, 'in_transit', { countryIso2: 'ZZ' })], now: at(2) });
    expect(r.originCountryIso2).toBeNull();
    expect(r.originCountry).toBeNull();
    expect(r.destinationCountryIso2).toBeNull();
    expect(r.destinationCarrier).toBeNull();
  });
});
