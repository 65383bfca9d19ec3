import fc from 'fast-check';
import { computeTracking } from '../../engine';
import { isTrackingStatusCode, type TrackingStatusCode } from '../../statuses';
import { SandboxTrackingProvider } from './sandbox-tracking-provider';
import {
  SANDBOX_PREFIX_STATUSES,
  sandboxExpectedStatus,
  parseSandboxNumber,
} from './sandbox-numbers';

const HOUR = 3_600_000;
const CREATED_AT = new Date('2025-06-01T12:00:00Z');
const provider = new SandboxTrackingProvider();

async function trackAndCompute(number: string, nowOffsetMs = 60_000) {
  const now = new Date(CREATED_AT.getTime() + nowOffsetMs);
  const result = await provider.track(number, 'tm-test', { now, createdAt: CREATED_AT });
  const tracking = computeTracking({
    createdAt: CREATED_AT,
    trackingNumber: number,
    originCarrier: 'tm-test',
    checkpoints: result.checkpoints,
    facts: result.facts,
    previous: null,
    now,
  });
  return { result, tracking };
}

describe('SandboxTrackingProvider: documented test numbers through the engine', () => {
  const table: [string, TrackingStatusCode][] = [
    ['TM418AAATM', 'pre_transit'],
    ['TM403AAATM', 'no_info'],
    ['TM102AAATM', 'in_transit'],
    ['TM204AAATM', 'delivery_in_progress'],
    ['TM200AAATM', 'delivered'],
    ['TM410AAATM', 'unsuccessful_delivery'],
    ['TM404AAATM', 'error'],
    ['TM500AAATM', 'error'],
    ['TM503AAATM', 'expired'],
    ['TM504AAATM', 'no_info'],
    ['TM202AAATM', 'available_for_pickup'],
    ['TM100AAATM', 'cancelled'],
    ['TM302AAATM', 'return_to_sender'],
    ['TM413AAATM', 'transit_limit_exceeded'],
    ['TM999AAATM', 'no_info'],
  ];

  it('covers every documented prefix', () => {
    expect(new Set(table.map(([n]) => n.slice(2, 5)))).toEqual(
      new Set([...Object.keys(SANDBOX_PREFIX_STATUSES), '999']),
    );
  });

  it.each(table)('%s yields %s right after creation and a day later', async (number, status) => {
    expect(sandboxExpectedStatus(number)).toBe(status);
    expect((await trackAndCompute(number)).tracking.trackingStatus).toBe(status);
    expect((await trackAndCompute(number, 24 * HOUR)).tracking.trackingStatus).toBe(status);
  });

  it('holds for any suffix and any case', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(SANDBOX_PREFIX_STATUSES)),
        fc.stringMatching(/^[A-Za-z0-9]{0,12}$/),
        fc.boolean(),
        async (prefix, suffix, lower) => {
          const raw = `TM${prefix}${suffix}TM`;
          const number = lower ? raw.toLowerCase() : raw;
          const { tracking } = await trackAndCompute(number);
          expect(tracking.trackingStatus).toBe(SANDBOX_PREFIX_STATUSES[prefix]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('SandboxTrackingProvider: journeys', () => {
  it('serves the tm-test carrier only', () => {
    expect(provider.supports('tm-test', 'TM200XTM')).toBe(true);
    expect(provider.supports('TM-TEST', 'anything')).toBe(true);
    expect(provider.supports('ups', 'TM200XTM')).toBe(false);
  });

  it('knows nothing about other tm-test numbers', async () => {
    for (const number of ['12345', 'TM12XTM', 'XTM200TM', 'TM200X']) {
      expect(await provider.track(number, 'tm-test', { now: CREATED_AT })).toEqual({
        checkpoints: [],
        facts: {},
      });
    }
    expect(parseSandboxNumber(' tm200abctm ')).toEqual({ normalized: 'TM200ABCTM', prefix: '200' });
  });

  it('returns the same checkpoints on every refresh', async () => {
    const ctx = (hours: number) => ({
      now: new Date(CREATED_AT.getTime() + hours * HOUR),
      createdAt: CREATED_AT,
    });
    const first = await provider.track('TM200REPEATTM', 'tm-test', ctx(0));
    const again = await provider.track('tm200repeattm', 'tm-test', ctx(72));
    expect(again).toEqual(first);
  });

  it('keeps externalIds stable even when anchored on now', async () => {
    const a = await provider.track('TM302XTM', 'tm-test', { now: CREATED_AT });
    const b = await provider.track('TM302XTM', 'tm-test', {
      now: new Date(CREATED_AT.getTime() + HOUR),
    });
    expect(b.checkpoints.map((c) => c.externalId)).toEqual(a.checkpoints.map((c) => c.externalId));
    expect(
      b.checkpoints[0].checkpointDate.getTime() - a.checkpoints[0].checkpointDate.getTime(),
    ).toBe(HOUR);
  });

  it('differs between numbers', async () => {
    const a = await provider.track('TM200ATM', 'tm-test', { now: CREATED_AT });
    const b = await provider.track('TM200BTM', 'tm-test', { now: CREATED_AT });
    expect(b.checkpoints.map((c) => c.externalId)).not.toEqual(
      a.checkpoints.map((c) => c.externalId),
    );
  });

  it('produces plausible journeys: chronological, before creation, well-formed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(SANDBOX_PREFIX_STATUSES)),
        fc.stringMatching(/^[A-Z0-9]{1,10}$/),
        async (prefix, suffix) => {
          const { checkpoints, facts } = await provider.track(`TM${prefix}${suffix}TM`, 'tm-test', {
            now: CREATED_AT,
            createdAt: CREATED_AT,
          });
          const times = checkpoints.map((c) => c.checkpointDate.getTime());
          expect([...times].sort((x, y) => x - y)).toEqual(times);
          for (const t of times) expect(t).toBeLessThan(CREATED_AT.getTime());
          expect(new Set(checkpoints.map((c) => c.externalId)).size).toBe(checkpoints.length);
          for (const c of checkpoints) {
            expect(isTrackingStatusCode(c.status)).toBe(true);
            expect(c.info.length).toBeGreaterThan(0);
            expect(c.location).toMatch(/^[A-Za-z .-]+, [A-Z]{2}$/);
            expect(c.countryIso2).toMatch(/^[A-Z]{2}$/);
            expect(c.carrierCode).toBe('tm-test');
          }
          if (checkpoints.length > 0) {
            expect(checkpoints[checkpoints.length - 1].status).toBe(
              SANDBOX_PREFIX_STATUSES[prefix],
            );
            expect(facts.originCountryIso2).toBe(checkpoints[0].countryIso2);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('walks a delivered parcel through pickup, transit, out for delivery and delivery', async () => {
    const { result, tracking } = await trackAndCompute('TM200JOURNEYTM');
    const statuses = result.checkpoints.map((c) => c.status);
    expect(statuses[0]).toBe('pre_transit');
    expect(statuses.slice(-2)).toEqual(['delivery_in_progress', 'delivered']);
    expect(statuses.filter((s) => s === 'in_transit').length).toBeGreaterThanOrEqual(4);
    expect(tracking.shippedAt).toEqual(result.checkpoints[1].checkpointDate);
    expect(tracking.daysInTransit).toBeGreaterThanOrEqual(1);
    expect(tracking.originCountry).not.toBeNull();
    expect(tracking.destinationCountry).not.toBeNull();
    expect(tracking.expectedDeliveryDate).toEqual(
      result.checkpoints[result.checkpoints.length - 1].checkpointDate,
    );
  });

  it('promises a delivery date in the future for parcels still on their way', async () => {
    for (const number of ['TM102ETATM', 'TM204ETATM', 'TM410ETATM', 'TM202ETATM']) {
      const { facts } = await provider.track(number, 'tm-test', {
        now: CREATED_AT,
        createdAt: CREATED_AT,
      });
      expect(facts.expectedDeliveryDate!.getTime()).toBeGreaterThan(CREATED_AT.getTime());
    }
  });

  it('shows a long transit for 413 and a 30-day silence for 503', async () => {
    const limit = (await trackAndCompute('TM413LONGTM')).tracking;
    expect(limit.daysInTransit).toBeGreaterThanOrEqual(60);
    const expired = await trackAndCompute('TM503LONGTM');
    const [label, last] = expired.result.checkpoints;
    expect(last.checkpointDate.getTime() - label.checkpointDate.getTime()).toBeGreaterThanOrEqual(
      30 * 24 * HOUR,
    );
    expect(expired.tracking.shippedAt).toBeNull();
  });
});
