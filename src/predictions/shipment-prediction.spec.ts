import type { ShipmentFacts } from './contribution';
import { DAY_MS, HOUR_MS } from './model/buckets';
import { MemoryStats } from './model/stats';
import { updateShipmentPrediction, type PredictionBefore } from './shipment-prediction';

const T0 = Date.parse('2025-03-03T08:00:00Z');
const at = (hours: number) => new Date(T0 + hours * HOUR_MS);
const nothing: PredictionBefore = {
  contribution: null,
  promises: null,
  announced: null,
  attention: [],
};
const settings = { waitingDays: 3 };

const base: ShipmentFacts = {
  createdAt: at(0),
  status: 'pre_transit',
  checkpoints: [{ at: at(1), status: 'pre_transit' }],
  carrier: 'ups',
  originCountry: 'US',
  destinationCountry: 'US',
  postcode: null,
};

describe('updateShipmentPrediction', () => {
  it('predicts, keeps the first window as announced, and contributes the shipment', () => {
    const u = updateShipmentPrediction({
      facts: base,
      before: nothing,
      stats: new MemoryStats(),
      settings,
      now: at(2),
    });
    expect(u.prediction?.basis.kind).toBe('default');
    expect(u.expectedDeliveryDate).toEqual(u.prediction!.likely);
    expect(u.moved).toBeNull();
    expect(u.announced).toEqual({
      earliest: u.prediction!.earliest,
      likely: u.prediction!.likely,
      latest: u.prediction!.latest,
    });
    expect(u.contribution.perfIdx).toContain(0);
    expect(u.promises).toEqual({ carrierDate: null, windowLatest: null });
  });

  it('announces a window that moved by a day, with the old and new ones, and nothing smaller', () => {
    const first = updateShipmentPrediction({
      facts: base,
      before: nothing,
      stats: new MemoryStats(),
      settings,
      now: at(2),
    });
    const shipped: ShipmentFacts = {
      ...base,
      status: 'in_transit',
      checkpoints: [...base.checkpoints, { at: at(30), status: 'in_transit' }],
    };
    const next = updateShipmentPrediction({
      facts: shipped,
      before: {
        contribution: first.contribution,
        promises: first.promises,
        announced: first.announced,
        attention: [],
      },
      stats: new MemoryStats(),
      settings,
      now: at(31),
    });
    expect(next.moved).not.toBeNull();
    expect(next.moved!.before).toEqual(first.announced);
    expect(next.announced).toEqual(next.moved!.after);
    // The window shown once shipped is the one on-time rates are measured against.
    expect(next.promises.windowLatest).toEqual(next.prediction!.latest);
    const again = updateShipmentPrediction({
      facts: shipped,
      before: {
        contribution: next.contribution,
        promises: next.promises,
        announced: next.announced,
        attention: [],
      },
      stats: new MemoryStats(),
      settings,
      now: at(32),
    });
    expect(again.moved).toBeNull();
    expect(again.announced).toEqual(next.announced);
  });

  it('reports attention codes that start, once', () => {
    const silent: ShipmentFacts = {
      ...base,
      status: 'in_transit',
      checkpoints: [{ at: at(1), status: 'in_transit' }],
    };
    const now = new Date(T0 + 10 * DAY_MS);
    const u = updateShipmentPrediction({
      facts: silent,
      before: nothing,
      stats: new MemoryStats(),
      settings,
      now,
    });
    expect(u.attention.codes).toEqual(['stalled']);
    expect(u.attentionStarted).toEqual(['stalled']);
    const v = updateShipmentPrediction({
      facts: silent,
      before: { ...nothing, attention: u.attention.codes },
      stats: new MemoryStats(),
      settings,
      now,
    });
    expect(v.attentionStarted).toEqual([]);
  });

  it('predicts nothing once delivered, and keeps the carrier date as the expected date', () => {
    const delivered: ShipmentFacts = {
      ...base,
      status: 'delivered',
      checkpoints: [
        { at: at(20), status: 'in_transit' },
        { at: at(50), status: 'delivered' },
      ],
      carrierDate: at(48),
    };
    const u = updateShipmentPrediction({
      facts: delivered,
      before: nothing,
      stats: new MemoryStats(),
      settings,
      now: at(51),
    });
    expect(u.prediction).toBeNull();
    expect(u.announced).toBeNull();
    expect(u.expectedDeliveryDate).toEqual(at(48));
    expect(u.contribution.statIdx.length).toBeGreaterThan(0);
  });

  it('is late against the window last announced, not against the fresh one', () => {
    const first = updateShipmentPrediction({
      facts: base,
      before: nothing,
      stats: new MemoryStats(),
      settings,
      now: at(2),
    });
    // Long past the announced latest, with a fresh checkpoint that keeps the parcel in its stage:
    // the fresh window is in the future, but what the customer was told has passed.
    const later = Date.parse(first.announced!.latest.toISOString()) + HOUR_MS;
    const facts: ShipmentFacts = {
      ...base,
      checkpoints: [...base.checkpoints, { at: new Date(later - HOUR_MS), status: 'pre_transit' }],
    };
    const before: PredictionBefore = { ...nothing, announced: first.announced };
    const u = updateShipmentPrediction({
      facts,
      before,
      stats: new MemoryStats(),
      settings,
      now: new Date(later),
    });
    expect(u.prediction!.earliest.getTime()).toBeGreaterThanOrEqual(later);
    if (u.moved) {
      // Moved by a day or more: the new window is announced, and nothing is late against it.
      expect(u.attention.codes).not.toContain('late');
    } else {
      expect(u.announced).toEqual(first.announced);
      expect(u.attention.codes).toContain('late');
      expect(u.attentionStarted).toContain('late');
    }
  });
});
