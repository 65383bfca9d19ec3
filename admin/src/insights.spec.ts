import {
  attentionListHref,
  basisText,
  days,
  lastDays,
  percent,
  windowText,
  type DeliveryPrediction,
} from './insights';

const window = (earliest: string, likely: string, latest: string): DeliveryPrediction => ({
  earliest,
  likely,
  latest,
  confidence: 0.81,
  basis: { kind: 'history', level: 1, deliveries: 132 },
});

describe("the console's words for predictions and analytics", () => {
  it('says the window as days, with the likely one, in the given zone', () => {
    const w = window(
      '2026-12-01T09:00:00+00:00',
      '2026-12-02T12:00:00+00:00',
      '2026-12-03T18:00:00+00:00',
    );
    expect(windowText(w, 'en-US', 'UTC')).toBe('Tue, Dec 1 – Thu, Dec 3 (most likely Wed, Dec 2)');
    // Late on the 3rd in UTC is the 4th in Tokyo.
    expect(windowText(w, 'en-US', 'Asia/Tokyo')).toBe(
      'Tue, Dec 1 – Fri, Dec 4 (most likely Wed, Dec 2)',
    );
    const sameDay = window('2026-12-01T08:00:00Z', '2026-12-01T12:00:00Z', '2026-12-01T17:00:00Z');
    expect(windowText(sameDay, 'en-US', 'UTC')).toBe('Tue, Dec 1');
  });

  it('says where a window comes from and how often such windows held', () => {
    const w = window('2026-12-01T09:00:00Z', '2026-12-02T09:00:00Z', '2026-12-03T09:00:00Z');
    expect(basisText(w)).toBe('Learnt from 132 deliveries on this lane; 81 % of such windows held');
    expect(basisText({ ...w, basis: { kind: 'default' }, confidence: 0.5 })).toMatch(
      /^Default window .*; 50 % of such windows held$/,
    );
    expect(basisText({ ...w, basis: { kind: 'carrier' } })).toMatch(/^The carrier's own date/);
  });

  it('formats rates and day quantiles, with a dash for nothing', () => {
    expect(percent(0.934)).toBe('93 %');
    expect(percent(null)).toBe('–');
    expect(days({ p50: 2.04, p90: 4.75 })).toBe('2.0 / 4.8');
    expect(days({ p50: null, p90: null })).toBe('–');
    expect(days({ p50: 1, p90: null })).toBe('1.0 / –');
  });

  it('links an attention reason to the filtered shipment list', () => {
    const href = attentionListHref('late');
    expect(href.startsWith('#/shipments?')).toBe(true);
    const query = new URLSearchParams(href.slice('#/shipments?'.length));
    expect(JSON.parse(query.get('filter')!)).toEqual({ attention: 'late' });
    expect(JSON.parse(query.get('displayedFilters')!)).toEqual({ attention: true });
  });

  it('gives the last n UTC days, today included', () => {
    expect(lastDays(30, new Date('2026-11-29T23:30:00Z'))).toEqual({
      from: '2026-10-31',
      to: '2026-11-29',
    });
    expect(lastDays(1, new Date('2026-11-29T00:00:00Z'))).toEqual({
      from: '2026-11-29',
      to: '2026-11-29',
    });
  });
});
