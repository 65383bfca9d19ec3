import { countryInLocation, mapShip24Tracking } from './ship24-tracking';

/** A Ship24 tracking: YunExpress hands over to USPS; events newest first, as Ship24 sends them. */
const tracking = {
  tracker: {
    trackerId: 'b2f8e3b4-0000-4000-8000-000000000001',
    trackingNumber: 'YT2412345678901234',
    courierCode: ['yunexpress'],
  },
  shipment: {
    statusMilestone: 'out_for_delivery',
    originCountryCode: 'CN',
    destinationCountryCode: 'USA',
    delivery: {
      estimatedDeliveryDate: '2025-03-20T00:00:00.000Z',
      courierEstimatedDeliveryDate: { from: '2025-03-13', to: '2025-03-14' },
    },
  },
  events: [
    {
      eventId: 'e3',
      status: 'Out for Delivery, Expected Delivery by 9:00pm',
      occurrenceDatetime: '2025-03-12T08:00:00',
      location: 'BROOKLYN, NY, US',
      courierCode: 'us-post',
      statusCode: 'delivery_out_for_delivery',
      statusMilestone: 'out_for_delivery',
    },
    {
      eventId: 'e2',
      status: 'Arrived at USPS Regional Facility',
      occurrenceDatetime: '2025-03-10T07:15:00-04:00',
      location: 'NEW YORK NY DISTRIBUTION CENTER',
      courierCode: 'us-post',
      statusCode: null,
      statusMilestone: 'in_transit',
    },
    {
      eventId: 'e1',
      status: 'Shipment information received',
      occurrenceDatetime: '2025-03-01T09:30:00+08:00',
      location: 'Shenzhen, China',
      courierCode: 'yunexpress',
      statusCode: 'data_order_created',
      statusMilestone: 'info_received',
    },
    { eventId: 'e0', status: 'undated', occurrenceDatetime: 'soon', statusMilestone: 'pending' },
  ],
  statistics: { timestamps: {} },
};

describe('mapShip24Tracking', () => {
  const result = mapShip24Tracking(tracking, 'yunexpress');

  it('maps dated events oldest first, honouring offsets, with Ship24 event ids', () => {
    expect(
      result.checkpoints.map((c) => [
        c.externalId,
        c.checkpointDate.toISOString(),
        c.status,
        c.rawStatus,
      ]),
    ).toEqual([
      ['ship24:e1', '2025-03-01T01:30:00.000Z', 'pre_transit', 'info_received/data_order_created'],
      ['ship24:e2', '2025-03-10T11:15:00.000Z', 'in_transit', 'in_transit'],
      [
        'ship24:e3',
        '2025-03-12T08:00:00.000Z',
        'delivery_in_progress',
        'out_for_delivery/delivery_out_for_delivery',
      ],
    ]);
  });

  it('keeps message, location and the country the location names', () => {
    expect(result.checkpoints.map((c) => [c.info, c.location, c.countryIso2])).toEqual([
      ['Shipment information received', 'Shenzhen, China', 'CN'],
      ['Arrived at USPS Regional Facility', 'NEW YORK NY DISTRIBUTION CENTER', null],
      ['Out for Delivery, Expected Delivery by 9:00pm', 'BROOKLYN, NY, US', 'US'],
    ]);
  });

  it('reports the handover: destination carrier and rel by courier', () => {
    expect(result.facts.destinationCarrier).toBe('usps');
    expect(result.checkpoints.map((c) => [c.carrierCode, c.rel])).toEqual([
      ['yunexpress', 'origin'],
      ['usps', 'destination'],
      ['usps', 'destination'],
    ]);
  });

  it("takes the end of the courier's window as expected delivery, and the countries", () => {
    expect(result.facts.expectedDeliveryDate?.toISOString()).toBe('2025-03-14T00:00:00.000Z');
    expect(result.facts.originCountryIso2).toBe('CN');
    expect(result.facts.destinationCountryIso2).toBe('US');
    const own = mapShip24Tracking(
      {
        ...tracking,
        shipment: {
          ...tracking.shipment,
          delivery: { ...tracking.shipment.delivery, courierEstimatedDeliveryDate: null },
        },
      },
      null,
    );
    expect(own.facts.expectedDeliveryDate?.toISOString()).toBe('2025-03-20T00:00:00.000Z');
  });

  it('has no destination carrier when one courier carries it all', () => {
    const single = mapShip24Tracking(
      { ...tracking, events: tracking.events.filter((e) => e.courierCode === 'us-post') },
      null,
    );
    expect(single.facts.destinationCarrier).toBeNull();
    expect(single.checkpoints.map((c) => [c.carrierCode, c.rel])).toEqual([
      ['usps', null],
      ['usps', null],
    ]);
  });

  it('survives an empty tracking', () => {
    expect(mapShip24Tracking({}, null)).toEqual({
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

describe('countryInLocation', () => {
  it.each([
    ['Shenzhen, China', 'CN'],
    ['Frankfurt, Germany', 'DE'],
    ['BROOKLYN, NY, US', 'US'],
    ['Paris, FRA', 'FR'],
    ['LOS ANGELES, CA', null],
    ['NEW YORK NY DISTRIBUTION CENTER', null],
    ['', null],
    [null, null],
  ])('%p -> %p', (location, expected) => {
    expect(countryInLocation(location)).toBe(expected);
  });
});
