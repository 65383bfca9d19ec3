import { mergeFacts } from './tracking-state';

describe('mergeFacts', () => {
  const stored = {
    destinationCarrier: 'usps',
    destinationCountryIso2: 'US',
    expectedDeliveryDate: new Date('2026-03-14T00:00:00Z'),
  };

  it('keeps what a partial report (a push of one event) leaves out', () => {
    const eta = new Date('2026-03-15T00:00:00Z');
    expect(mergeFacts(stored, { expectedDeliveryDate: eta })).toEqual({
      ...stored,
      expectedDeliveryDate: eta,
    });
    expect(mergeFacts(stored, {})).toEqual(stored);
    expect(mergeFacts(stored, undefined)).toEqual(stored);
  });

  it('lets a report replace or clear (null: no longer known) what it names', () => {
    expect(mergeFacts(stored, { destinationCarrier: 'ups', expectedDeliveryDate: null })).toEqual({
      ...stored,
      destinationCarrier: 'ups',
      expectedDeliveryDate: null,
    });
    expect(mergeFacts({}, { originCountryIso2: 'CN' })).toEqual({ originCountryIso2: 'CN' });
  });
});
