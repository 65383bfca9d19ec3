import { DAY_MS } from '../model/buckets';
import { logNormalQuantile } from '../model/lognormal';
import { journeyOf } from '../model/stages';
import { DEMO_LANES, generateHistory, historyRows, type HistoryOptions } from './history-generator';

const OPTIONS: HistoryOptions = {
  seed: 11,
  shipments: 4000,
  from: new Date('2025-01-01T00:00:00Z'),
  to: new Date('2025-04-01T00:00:00Z'),
  lanes: DEMO_LANES,
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

describe('history generator', () => {
  const history = generateHistory(OPTIONS);

  it('is deterministic for a seed and differs between seeds', () => {
    expect(generateHistory({ ...OPTIONS, shipments: 50 })).toEqual(
      generateHistory({ ...OPTIONS, shipments: 50 }),
    );
    expect(generateHistory({ ...OPTIONS, shipments: 50, seed: 12 })[0].id).not.toBe(
      generateHistory({ ...OPTIONS, shipments: 50 })[0].id,
    );
  });

  it('draws lanes by weight and stage durations from the lane distributions', () => {
    const lane0 = history.filter((s) => s.lane === 0);
    expect(lane0.length / history.length).toBeCloseTo(4 / 10, 1);
    const spec = DEMO_LANES[0];
    const handovers = lane0.map((s) => journeyOf(s).shippedAt! - s.createdAt.getTime());
    const transits = lane0
      .map((s) => journeyOf(s))
      .filter((j) => j.entered[2] !== null && !j.exception)
      .map((j) => j.entered[2]! - j.entered[1]!);
    // The median of n log-normal draws is off by a factor e^(±1.25 σ / √n): about 2 % for these
    // 1600 draws (σ ≈ 0.6); 8 % is four of those.
    expect(Math.abs(median(handovers) / logNormalQuantile(spec.handover, 0.5) - 1)).toBeLessThan(
      0.08,
    );
    expect(Math.abs(median(transits) / logNormalQuantile(spec.transit, 0.5) - 1)).toBeLessThan(
      0.08,
    );
  });

  it('produces failed attempts, pickups, exceptions and returns at about their rates', () => {
    const share = (p: (s: (typeof history)[number]) => boolean) =>
      history.filter(p).length / history.length;
    const weighted = (rate: (l: (typeof DEMO_LANES)[number]) => number) =>
      DEMO_LANES.reduce((a, l) => a + l.weight * rate(l), 0) /
      DEMO_LANES.reduce((a, l) => a + l.weight, 0);
    expect(share((s) => s.outcome === 'exception')).toBeCloseTo(
      weighted((l) => l.exceptionRate),
      2,
    );
    expect(share((s) => journeyOf(s).failedAttempt)).toBeGreaterThan(0.03);
    expect(share((s) => journeyOf(s).entered[4] !== null)).toBeGreaterThan(0.1);
    expect(share((s) => s.outcome === 'returned')).toBeGreaterThan(0.005);
    expect(share((s) => s.outcome === 'delivered')).toBeGreaterThan(0.9);
  });

  it('gives carrier dates with their lane error, and only the delivery the checkpoints show', () => {
    const ups = history.filter((s) => s.carrier === 'ups' && s.deliveredAt);
    const dated = ups.filter((s) => s.carrierDate);
    expect(dated.length / ups.length).toBeCloseTo(0.9, 1);
    const errors = dated.map((s) => (s.carrierDate!.getTime() - s.deliveredAt!.getTime()) / DAY_MS);
    expect(Math.abs(median(errors))).toBeLessThan(0.25);
    for (const s of history.slice(0, 300))
      expect(journeyOf(s).deliveredAt).toBe(s.deliveredAt ? s.deliveredAt.getTime() : null);
  });

  it('shows a history seen mid-way: parcels in flight have no later checkpoint', () => {
    const now = new Date('2025-03-31T00:00:00Z');
    const seen = generateHistory({ ...OPTIONS, shipments: 500, now });
    const inFlight = seen.filter((s) => s.outcome === 'in_flight');
    expect(inFlight.length).toBeGreaterThan(0);
    for (const s of inFlight) {
      expect(journeyOf(s).stage).not.toBeNull();
      for (const c of s.checkpoints) expect(c.at.getTime()).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('gives table rows as the tracking engine would have written them', () => {
    const parcels = history.slice(0, 20);
    const rows = historyRows(parcels, '00000000-0000-4000-8000-000000000001');
    expect(rows.shipments).toHaveLength(20);
    expect(rows.checkpoints).toHaveLength(parcels.reduce((a, s) => a + s.checkpoints.length, 0));
    for (const [i, row] of rows.shipments.entries()) {
      expect(row.tracking_status).toBe(parcels[i].status);
      expect(row.next_check_at === null).toBe(journeyOf(parcels[i]).stage === null);
      expect(
        new Set(rows.checkpoints.filter((c) => c.shipment_id === row.id).map((c) => c.external_id))
          .size,
      ).toBe(parcels[i].checkpoints.length);
    }
    expect(rows.shipments[0].created_at).toBe(parcels[0].createdAt.toISOString());
  });
});
