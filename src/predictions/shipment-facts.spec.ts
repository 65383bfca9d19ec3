import type { ShipmentPredictionRow } from '../shipments/shipment-prediction-store';
import { attentionCodesOf, factsOf, windowOfJson } from './shipment-facts';

const row: ShipmentPredictionRow = {
  id: 's1',
  workspace_id: 'w1',
  team_id: 't1',
  attention_waiting_days: 3,
  tracking_number: 'T1',
  created_at: new Date('2025-03-01T10:00:00Z'),
  tracking_status: 'in_transit',
  origin_carrier: 'ups',
  origin_country_iso2: 'US',
  destination_country_iso2: 'CA',
  postcode: 'H2X',
  address_country_iso2: null,
  carrier_date: '2025-03-05T00:00:00+00:00',
  delivery_prediction_announced: null,
  attention_codes: [],
  predicted: false,
};

describe('shipment facts', () => {
  it('reads the row and the checkpoints, leaving out statuses it does not know', () => {
    const facts = factsOf(row, [
      { at: new Date('2025-03-02T10:00:00Z'), status: 'in_transit' },
      { at: new Date('2025-03-02T11:00:00Z'), status: 'teleported' },
    ]);
    expect(facts).toEqual({
      createdAt: row.created_at,
      status: 'in_transit',
      checkpoints: [{ at: new Date('2025-03-02T10:00:00Z'), status: 'in_transit' }],
      carrier: 'ups',
      originCountry: 'US',
      destinationCountry: 'CA',
      postcode: 'H2X',
      carrierDate: new Date('2025-03-05T00:00:00Z'),
    });
    expect(
      factsOf({ ...row, tracking_status: 'nope', carrier_date: 'soon' }, []).status,
    ).toBeNull();
    expect(factsOf({ ...row, carrier_date: 'soon' }, []).carrierDate).toBeNull();
  });

  it('reads a stored window back, and nothing from a broken one', () => {
    const w = {
      earliest: '2025-03-04T00:00:00+00:00',
      likely: '2025-03-05T00:00:00+00:00',
      latest: '2025-03-07T00:00:00+00:00',
    };
    expect(windowOfJson(w)).toEqual({
      earliest: new Date(w.earliest),
      likely: new Date(w.likely),
      latest: new Date(w.latest),
    });
    expect(windowOfJson({ ...w, latest: 'later' })).toBeNull();
    expect(windowOfJson(null)).toBeNull();
  });

  it('keeps the attention codes it knows, most urgent first', () => {
    expect(attentionCodesOf(['late', 'bogus', 'exception'])).toEqual(['exception', 'late']);
    expect(attentionCodesOf(null)).toEqual([]);
  });
});
