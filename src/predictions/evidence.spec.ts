import { decisionHolds, type TrackingEvidence } from './evidence';

const before: TrackingEvidence = {
  status: 'in_transit',
  originCountry: 'US',
  destinationCountry: 'CA',
  carrierDate: '2025-03-05T00:00:00.000Z',
};

describe('decisionHolds', () => {
  it('holds when a tracked, predicted parcel gets nothing new', () => {
    expect(decisionHolds(before, { ...before }, 0, true)).toBe(true);
  });

  it('compares the carrier date as a time, not as text', () => {
    expect(
      decisionHolds(before, { ...before, carrierDate: '2025-03-05T00:00:00+00:00' }, 0, true),
    ).toBe(true);
  });

  it.each<[string, Partial<TrackingEvidence>]>([
    ['the status', { status: 'delivery_in_progress' }],
    ['the origin country', { originCountry: 'MX' }],
    ['the destination country', { destinationCountry: 'US' }],
    ['the carrier date', { carrierDate: '2025-03-06T00:00:00.000Z' }],
    ['the carrier date appearing', { carrierDate: null }],
  ])('does not hold when %s changes', (_, change) => {
    expect(decisionHolds(before, { ...before, ...change }, 0, true)).toBe(false);
  });

  it('does not hold when a checkpoint is new or corrected, even with the same status', () => {
    expect(decisionHolds(before, { ...before }, 1, true)).toBe(false);
  });

  it('does not hold for a parcel never tracked: its stored decision came from no tracking', () => {
    const untracked = { ...before, status: null };
    expect(decisionHolds(untracked, { ...untracked }, 0, true)).toBe(false);
  });

  it('does not hold for a parcel on its way with no stored window', () => {
    expect(decisionHolds(before, { ...before }, 0, false)).toBe(false);
  });

  it('holds for a final status, which has no window', () => {
    const delivered = { ...before, status: 'delivered' };
    expect(decisionHolds(delivered, { ...delivered }, 0, false)).toBe(true);
  });
});
