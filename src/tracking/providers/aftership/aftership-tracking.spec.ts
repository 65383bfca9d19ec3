import { countryIso2, mapAfterShipTracking } from './aftership-tracking';

/** A 2025-01 tracking: China Post hands over to USPS for the last mile. */
const tracking = {
  id: 'a1b2c3',
  tracking_number: 'LX123456789CN',
  slug: 'china-post',
  tag: 'OutForDelivery',
  subtag: 'OutForDelivery_001',
  origin_country_region: 'CHN',
  destination_country_region: 'USA',
  last_mile: { tracking_number: '9400111899562537624326', slug: 'usps' },
  courier_estimated_delivery_date: { estimated_delivery_date: '2025-03-14' },
  aftership_estimated_delivery_date: { estimated_delivery_date: '2025-03-20' },
  checkpoints: [
    {
      slug: 'china-post',
      checkpoint_time: '2025-03-01T09:30:00+08:00',
      created_at: '2025-03-01T02:00:00Z',
      message: 'Acceptance',
      location: 'SHENZHEN',
      country_region: 'CHN',
      tag: 'InTransit',
      subtag: 'InTransit_002',
    },
    {
      slug: 'usps',
      checkpoint_time: '2025-03-10T07:15:00-04:00',
      message: 'Arrived at USPS Regional Facility',
      city: 'NEW YORK',
      state: 'NY',
      zip: '10001',
      country_region: 'USA',
      tag: 'InTransit',
      subtag: 'InTransit_003',
    },
    {
      slug: 'usps',
      checkpoint_time: '2025-03-12T08:00:00',
      message: 'Out for Delivery',
      location: 'BROOKLYN, NY',
      country_region: 'USA',
      tag: 'OutForDelivery',
      subtag: 'OutForDelivery_001',
    },
    { slug: 'usps', message: 'no time at all', tag: 'InTransit' },
  ],
};

describe('mapAfterShipTracking', () => {
  const result = mapAfterShipTracking(tracking, 'china-post');

  it('maps each dated checkpoint, honouring its offset (none: read as UTC)', () => {
    expect(
      result.checkpoints.map((c) => [c.checkpointDate.toISOString(), c.status, c.info]),
    ).toEqual([
      ['2025-03-01T01:30:00.000Z', 'in_transit', 'Acceptance'],
      ['2025-03-10T11:15:00.000Z', 'in_transit', 'Arrived at USPS Regional Facility'],
      ['2025-03-12T08:00:00.000Z', 'delivery_in_progress', 'Out for Delivery'],
    ]);
  });

  it('keeps the raw status, the place and the ISO2 country', () => {
    expect(
      result.checkpoints.map((c) => ({
        raw: 'rawStatus' in c ? c.rawStatus : undefined,
        location: c.location,
        country: c.countryIso2,
      })),
    ).toEqual([
      { raw: 'InTransit/InTransit_002', location: 'SHENZHEN', country: 'CN' },
      { raw: 'InTransit/InTransit_003', location: 'NEW YORK, NY, 10001', country: 'US' },
      { raw: 'OutForDelivery/OutForDelivery_001', location: 'BROOKLYN, NY', country: 'US' },
    ]);
  });

  it('tells the last-mile carrier apart: destination fact and checkpoint rel', () => {
    expect(result.facts.destinationCarrier).toBe('usps');
    expect(result.checkpoints.map((c) => [c.carrierCode, c.rel])).toEqual([
      ['china-post', 'origin'],
      ['usps', 'destination'],
      ['usps', 'destination'],
    ]);
  });

  it("takes the carrier's expected delivery first, and the countries", () => {
    expect(result.facts.expectedDeliveryDate?.toISOString()).toBe('2025-03-14T00:00:00.000Z');
    expect(result.facts.originCountryIso2).toBe('CN');
    expect(result.facts.destinationCountryIso2).toBe('US');
    const aiOnly = mapAfterShipTracking(
      { ...tracking, courier_estimated_delivery_date: null },
      null,
    );
    expect(aiOnly.facts.expectedDeliveryDate?.toISOString()).toBe('2025-03-20T00:00:00.000Z');
  });

  it('gives stable ids that survive a re-classification but not a different event', () => {
    const again = mapAfterShipTracking(JSON.parse(JSON.stringify(tracking)), null);
    expect(again.checkpoints.map((c) => c.externalId)).toEqual(
      result.checkpoints.map((c) => c.externalId),
    );
    const retagged = mapAfterShipTracking(
      {
        ...tracking,
        checkpoints: [{ ...tracking.checkpoints[0], tag: 'Exception', subtag: 'Exception_005' }],
      },
      null,
    );
    expect(retagged.checkpoints[0].externalId).toBe(result.checkpoints[0].externalId);
    expect(retagged.checkpoints[0].status).toBe('in_transit');
    expect(new Set(result.checkpoints.map((c) => c.externalId)).size).toBe(3);
    expect(result.checkpoints[0].externalId).toMatch(/^aftership:[0-9a-f]{32}$/);
  });

  it('has no destination carrier nor rel without a handover', () => {
    const direct = mapAfterShipTracking(
      { ...tracking, slug: 'usps', last_mile: { slug: 'usps' } },
      null,
    );
    expect(direct.facts.destinationCarrier).toBeNull();
    expect(direct.checkpoints.every((c) => c.rel === null)).toBe(true);
  });

  it('survives a tracking with nothing in it', () => {
    expect(mapAfterShipTracking({}, null)).toEqual({
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

describe('countryIso2', () => {
  it.each([
    ['USA', 'US'],
    ['deu', 'DE'],
    ['CN', 'CN'],
    ['XYZ', null],
    ['ZZ', null],
    ['', null],
    [null, null],
  ])('%p -> %p', (input, expected) => {
    expect(countryIso2(input)).toBe(expected);
  });
});
