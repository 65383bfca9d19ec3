import { dhlInstant } from './dhl-dates';
import { mapDhlShipment, pickDhlShipment, type DhlShipment } from './dhl-mapping';

const EXPRESS: DhlShipment = {
  id: '1234567890',
  service: 'express',
  origin: { address: { addressLocality: 'HONG KONG - HONG KONG', countryCode: 'HK' } },
  destination: { address: { addressLocality: 'LEIPZIG - GERMANY', countryCode: 'DE' } },
  estimatedTimeOfDelivery: '2024-05-03T18:00:00+02:00',
  events: [
    {
      timestamp: '2024-05-03T08:12:00+02:00',
      location: { address: { addressLocality: 'LEIPZIG - GERMANY', countryCode: 'DE' } },
      statusCode: 'transit',
      status: 'WITH DELIVERY COURIER',
      description: 'With delivery courier',
    },
    {
      // DHL Express local time without an offset: read as UTC.
      timestamp: '2024-05-01T22:41:00',
      location: { address: { addressLocality: 'HONG KONG - HONG KONG', countryCode: 'HK' } },
      statusCode: 'transit',
      description: 'Shipment picked up',
    },
    {
      timestamp: '2024-04-30T10:00:00Z',
      statusCode: 'pre-transit',
      status: 'Shipment information received',
    },
    { timestamp: 'not a date', statusCode: 'transit' },
  ],
};

describe('DHL UTAPI answer mapping', () => {
  it('reads timestamps with their offset, and bare local times as UTC', () => {
    expect(dhlInstant('2024-05-03T08:12:00+02:00')).toEqual(new Date('2024-05-03T06:12:00Z'));
    expect(dhlInstant('2018-03-02T07:53:47Z')).toEqual(new Date('2018-03-02T07:53:47Z'));
    expect(dhlInstant('2024-05-01T22:41:00')).toEqual(new Date('2024-05-01T22:41:00Z'));
    expect(dhlInstant('2024-05-01T22:41')).toEqual(new Date('2024-05-01T22:41:00Z'));
    expect(dhlInstant('')).toBeNull();
  });

  it('maps events: instant, refined status, place, country, carrier of the service, raw status', () => {
    const result = mapDhlShipment(EXPRESS);
    expect(result.checkpoints.map((c) => ({ ...c, externalId: typeof c.externalId }))).toEqual([
      {
        externalId: 'string',
        checkpointDate: new Date('2024-05-03T06:12:00Z'),
        status: 'delivery_in_progress',
        info: 'With delivery courier',
        location: 'LEIPZIG - GERMANY',
        countryIso2: 'DE',
        carrierCode: 'dhl',
        rel: 'origin',
        rawStatus: 'transit/WITH DELIVERY COURIER',
      },
      {
        externalId: 'string',
        checkpointDate: new Date('2024-05-01T22:41:00Z'),
        status: 'in_transit',
        info: 'Shipment picked up',
        location: 'HONG KONG - HONG KONG',
        countryIso2: 'HK',
        carrierCode: 'dhl',
        rel: 'origin',
        rawStatus: 'transit',
      },
      {
        externalId: 'string',
        checkpointDate: new Date('2024-04-30T10:00:00Z'),
        status: 'pre_transit',
        info: 'Shipment information received',
        location: null,
        countryIso2: null,
        carrierCode: 'dhl',
        rel: 'origin',
        rawStatus: 'pre-transit/Shipment information received',
      },
    ]);
    expect(result.facts).toEqual({
      expectedDeliveryDate: new Date('2024-05-03T16:00:00Z'),
      originCountryIso2: 'HK',
      destinationCountryIso2: 'DE',
    });
  });

  it('gives stable, distinct checkpoint ids', () => {
    const ids = mapDhlShipment(EXPRESS).checkpoints.map((c) => c.externalId);
    expect(mapDhlShipment(structuredClone(EXPRESS)).checkpoints.map((c) => c.externalId)).toEqual(
      ids,
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^dhl:/);
  });

  it('falls back to the delivery time frame, and to the status when there are no events', () => {
    const result = mapDhlShipment({
      service: 'parcel-de',
      estimatedDeliveryTimeFrame: {
        estimatedFrom: '2024-05-03T09:00:00+02:00',
        estimatedThrough: '2024-05-03T13:00:00+02:00',
      },
      status: {
        timestamp: '2024-05-02T20:00:00+02:00',
        statusCode: 'transit',
        description: 'In transit',
      },
    });
    expect(result.facts.expectedDeliveryDate).toEqual(new Date('2024-05-03T11:00:00Z'));
    expect(result.checkpoints).toHaveLength(1);
    expect(result.checkpoints[0].carrierCode).toBe('deutsche-post');
  });

  it('picks the shipment of the division matching the asked carrier', () => {
    const body = {
      shipments: [
        { id: 'x', service: 'express' },
        { id: 'x', service: 'ecommerce-europe' },
      ],
    };
    expect(pickDhlShipment(body, 'dhl-ecommerce')?.service).toBe('ecommerce-europe');
    expect(pickDhlShipment(body, 'dhl')?.service).toBe('express');
    expect(pickDhlShipment(body, null)?.service).toBe('express');
    expect(pickDhlShipment(body, 'deutsche-post')?.service).toBe('express');
    expect(pickDhlShipment({ shipments: [] }, 'dhl')).toBeNull();
    expect(pickDhlShipment('oops', 'dhl')).toBeNull();
  });
});
