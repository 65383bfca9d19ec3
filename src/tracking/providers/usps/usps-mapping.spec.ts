import { mapUspsTracking, type UspsTrackingResponse } from './usps-mapping';

/** A DETAIL answer (official field names), events newest first. */
const BODY: UspsTrackingResponse = {
  trackingNumber: '9400100000000000000000',
  status: 'Out for Delivery',
  statusCategory: 'Out for Delivery',
  statusSummary:
    'Your item is out for delivery on August 3, 2023 at 7:10 am in PALO ALTO, CA 94301.',
  mailClass: 'Priority Mail',
  destinationCity: 'PALO ALTO',
  destinationState: 'CA',
  destinationZIP: '94301',
  expectedDeliveryDate: '2023-08-03',
  trackingEvents: [
    {
      eventType: 'Out for Delivery',
      eventTimestamp: '2023-08-03T07:10:00-07:00',
      eventCountry: '',
      eventCity: 'PALO ALTO',
      eventState: 'CA',
      eventZIP: '94301',
      eventCode: 'OF',
    },
    {
      eventType: 'Arrived at Post Office',
      eventTimestamp: '2023-08-03T05:01:00Z',
      eventCountry: '',
      eventCity: 'PALO ALTO',
      eventState: 'CA',
      eventZIP: '94301',
      eventCode: '07',
    },
    {
      eventType: 'USPS in possession of item',
      eventTimestamp: '2023-08-02T07:31:00Z',
      eventCountry: '',
      eventCity: 'SEATTLE',
      eventState: 'WA',
      eventZIP: '98101',
      eventCode: '03',
    },
    {
      eventType: 'Origin Post is Preparing Shipment',
      eventTimestamp: '2023-08-01T09:00:00',
      eventCountry: 'CANADA',
      eventCity: 'TORONTO',
    },
    { eventType: 'broken', eventTimestamp: 'yesterday' },
  ],
};

describe('USPS v3 answer mapping', () => {
  const result = mapUspsTracking(BODY);

  it('maps every readable event: instant at its offset, status, place, raw status', () => {
    expect(result.checkpoints).toEqual([
      {
        externalId: 'usps:2023-08-03T07:10:00-07:00:OF:PALO ALTO',
        checkpointDate: new Date('2023-08-03T14:10:00Z'),
        status: 'delivery_in_progress',
        info: 'Out for Delivery',
        location: 'PALO ALTO, CA 94301',
        countryIso2: 'US',
        carrierCode: 'usps',
        rel: 'origin',
        rawStatus: 'OF Out for Delivery',
      },
      {
        externalId: 'usps:2023-08-03T05:01:00Z:07:PALO ALTO',
        checkpointDate: new Date('2023-08-03T05:01:00Z'),
        status: 'in_transit',
        info: 'Arrived at Post Office',
        location: 'PALO ALTO, CA 94301',
        countryIso2: 'US',
        carrierCode: 'usps',
        rel: 'origin',
        rawStatus: '07 Arrived at Post Office',
      },
      {
        externalId: 'usps:2023-08-02T07:31:00Z:03:SEATTLE',
        checkpointDate: new Date('2023-08-02T07:31:00Z'),
        status: 'in_transit',
        info: 'USPS in possession of item',
        location: 'SEATTLE, WA 98101',
        countryIso2: 'US',
        carrierCode: 'usps',
        rel: 'origin',
        rawStatus: '03 USPS in possession of item',
      },
      {
        externalId: 'usps:2023-08-01T09:00:00::TORONTO',
        checkpointDate: new Date('2023-08-01T09:00:00Z'),
        status: 'in_transit',
        info: 'Origin Post is Preparing Shipment',
        location: 'TORONTO',
        countryIso2: null,
        carrierCode: 'usps',
        rel: 'origin',
        rawStatus: 'Origin Post is Preparing Shipment',
      },
    ]);
  });

  it('reports the expected delivery date', () => {
    expect(result.facts).toEqual({ expectedDeliveryDate: new Date('2023-08-03T00:00:00Z') });
    expect(mapUspsTracking({ trackingEvents: [] })).toEqual({
      checkpoints: [],
      facts: { expectedDeliveryDate: null },
    });
  });

  it('applies the package category to the newest event only', () => {
    const mapped = mapUspsTracking({
      statusCategory: 'Delivered',
      trackingEvents: [
        {
          eventType: 'Arrived at Facility',
          eventTimestamp: '2023-08-01T10:00:00Z',
          eventCity: 'A',
        },
        { eventType: 'Left Facility', eventTimestamp: '2023-08-02T10:00:00Z', eventCity: 'B' },
      ],
    });
    expect(mapped.checkpoints.map((c) => c.status)).toEqual(['in_transit', 'delivered']);
  });
});
