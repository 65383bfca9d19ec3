import { mapEasyPostTracker } from './easypost-tracker';

const detail = (
  datetime: string,
  message: string,
  status: string,
  status_detail: string,
  source: string,
  place: { city?: string; state?: string; zip?: string; country?: string } = {},
) => ({
  object: 'TrackingDetail',
  message,
  description: '',
  status,
  status_detail,
  datetime,
  source,
  tracking_location: { object: 'TrackingLocation', ...place },
});

/** A DHL eCommerce tracker whose last mile is USPS (details oldest first, as in EasyPost's sample). */
const tracker = {
  id: 'trk_1',
  object: 'Tracker',
  tracking_code: 'GM605112270084510370',
  carrier: 'DHLeCommerce',
  status: 'out_for_delivery',
  est_delivery_date: '2025-03-14T00:00:00Z',
  carrier_detail: {
    origin_tracking_location: { country: 'US' },
    destination_tracking_location: { country: 'US' },
    est_delivery_date_local: '2025-03-15',
  },
  tracking_details: [
    detail(
      '2025-03-08T16:00:00Z',
      'Shipping Label Created',
      'pre_transit',
      'label_created',
      'DHLeCommerce',
      { city: 'ORLANDO', state: 'FL', zip: '32801', country: 'US' },
    ),
    detail(
      '2025-03-10T07:15:00-04:00',
      'Arrived at Post Office',
      'in_transit',
      'transferred_to_destination_carrier',
      'USPS',
      { city: 'NEW YORK', state: 'NY', country: 'US' },
    ),
    detail(
      '2025-03-12T08:00:00-04:00',
      'Out for Delivery',
      'out_for_delivery',
      'out_for_delivery',
      'USPS',
      { city: 'BROOKLYN', state: 'NY', zip: '11201', country: 'US' },
    ),
    detail('not a date', 'ignored', 'in_transit', 'status_update', 'USPS'),
  ],
};

describe('mapEasyPostTracker', () => {
  const result = mapEasyPostTracker(tracker, 'dhl-ecommerce');

  it('maps each dated detail with its offset, raw status and place', () => {
    expect(
      result.checkpoints.map((c) => [
        c.checkpointDate.toISOString(),
        c.status,
        c.rawStatus,
        c.info,
        c.location,
        c.countryIso2,
      ]),
    ).toEqual([
      [
        '2025-03-08T16:00:00.000Z',
        'pre_transit',
        'pre_transit/label_created',
        'Shipping Label Created',
        'ORLANDO, FL, 32801',
        'US',
      ],
      [
        '2025-03-10T11:15:00.000Z',
        'in_transit',
        'in_transit/transferred_to_destination_carrier',
        'Arrived at Post Office',
        'NEW YORK, NY',
        'US',
      ],
      [
        '2025-03-12T12:00:00.000Z',
        'delivery_in_progress',
        'out_for_delivery/out_for_delivery',
        'Out for Delivery',
        'BROOKLYN, NY, 11201',
        'US',
      ],
    ]);
  });

  it('tells the last-mile carrier by the detail source', () => {
    expect(result.facts.destinationCarrier).toBe('usps');
    expect(result.checkpoints.map((c) => [c.carrierCode, c.rel])).toEqual([
      ['dhl-ecommerce', 'origin'],
      ['usps', 'destination'],
      ['usps', 'destination'],
    ]);
  });

  it('reads the expected delivery and countries', () => {
    expect(result.facts.expectedDeliveryDate?.toISOString()).toBe('2025-03-14T00:00:00.000Z');
    expect(result.facts.originCountryIso2).toBe('US');
    expect(result.facts.destinationCountryIso2).toBe('US');
    const local = mapEasyPostTracker({ ...tracker, est_delivery_date: null }, null);
    expect(local.facts.expectedDeliveryDate?.toISOString()).toBe('2025-03-15T00:00:00.000Z');
  });

  it('gives ids stable across answers and distinct per detail', () => {
    const again = mapEasyPostTracker(JSON.parse(JSON.stringify(tracker)), null);
    expect(again.checkpoints.map((c) => c.externalId)).toEqual(
      result.checkpoints.map((c) => c.externalId),
    );
    expect(new Set(result.checkpoints.map((c) => c.externalId)).size).toBe(3);
    expect(result.checkpoints[0].externalId).toMatch(/^easypost:[0-9a-f]{32}$/);
  });

  it('has no destination carrier when the tracker carrier reports everything', () => {
    const usps = mapEasyPostTracker(
      {
        ...tracker,
        carrier: 'USPS',
        tracking_details: tracker.tracking_details.map((d) => ({ ...d, source: 'USPS' })),
      },
      null,
    );
    expect(usps.facts.destinationCarrier).toBeNull();
    expect(usps.checkpoints.every((c) => c.rel === null)).toBe(true);
  });

  it('survives an empty tracker', () => {
    expect(mapEasyPostTracker({}, null)).toEqual({
      checkpoints: [],
      facts: {
        destinationCarrier: null,
        originCountryIso2: null,
        destinationCountryIso2: null,
        expectedDeliveryDate: null,
      },
    });
  });
});
