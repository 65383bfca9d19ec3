import { TrackingProviderError } from '../tracking-provider-error';
import { fedexInstant } from './fedex-dates';
import { fedexResultsByNumber, mapFedexResult, type FedexTrackResult } from './fedex-mapping';

/** A Ground Economy parcel handed to USPS, scans newest first, Mountain and Eastern offsets. */
const RESULT: FedexTrackResult = {
  trackingNumberInfo: { trackingNumber: '794843185271' },
  dateAndTimes: [
    { type: 'ESTIMATED_DELIVERY', dateTime: '2024-03-08T00:00:00-05:00' },
    { type: 'SHIP', dateTime: '2024-03-04T00:00:00-07:00' },
  ],
  scanEvents: [
    {
      date: '2024-03-07T05:40:00-05:00',
      eventType: 'AX',
      eventDescription: 'At USPS facility',
      derivedStatusCode: 'IT',
      scanLocation: { city: 'NEW YORK', stateOrProvinceCode: 'NY', countryCode: 'US' },
      locationId: 'NYCR',
    },
    {
      date: '2024-03-05T18:02:00-07:00',
      eventType: 'DE',
      eventDescription: 'Delivery exception',
      exceptionDescription: 'Weather delay',
      derivedStatusCode: 'DE',
      scanLocation: { city: 'DENVER', stateOrProvinceCode: 'CO', countryCode: 'US' },
    },
    {
      date: '2024-03-04T12:01:00-07:00',
      eventType: 'PU',
      eventDescription: 'Picked up',
      derivedStatusCode: 'PU',
      scanLocation: { city: 'DENVER', stateOrProvinceCode: 'CO', countryCode: 'US' },
      locationId: 'DENR',
    },
    { date: 'soon', eventType: 'IT' },
  ],
};

describe('FedEx Track answer mapping', () => {
  it('reads ISO dates at their offset; bare times as UTC; bare dates as midnight UTC', () => {
    expect(fedexInstant('2018-02-02T12:01:00-07:00')).toEqual(new Date('2018-02-02T19:01:00Z'));
    expect(fedexInstant('2018-02-02T12:01:00+0530')).toEqual(new Date('2018-02-02T06:31:00Z'));
    expect(fedexInstant('2018-02-02T12:01:00')).toEqual(new Date('2018-02-02T12:01:00Z'));
    expect(fedexInstant('2018-02-02')).toEqual(new Date('2018-02-02T00:00:00Z'));
    expect(fedexInstant('02/02/2018')).toBeNull();
    expect(fedexInstant(undefined)).toBeNull();
  });

  it('maps every readable scan with its instant, status, place and raw codes', () => {
    const result = mapFedexResult(RESULT);
    if (result instanceof TrackingProviderError) throw result;
    expect(result.checkpoints).toEqual([
      {
        externalId: 'fedex:2024-03-07T05:40:00-05:00:AX:NYCR',
        checkpointDate: new Date('2024-03-07T10:40:00Z'),
        status: 'in_transit',
        info: 'At USPS facility',
        location: 'NEW YORK, NY',
        countryIso2: 'US',
        carrierCode: 'fedex',
        rel: 'origin',
        rawStatus: 'AX/IT',
      },
      {
        externalId: 'fedex:2024-03-05T18:02:00-07:00:DE:DENVER',
        checkpointDate: new Date('2024-03-06T01:02:00Z'),
        status: 'unsuccessful_delivery',
        info: 'Delivery exception: Weather delay',
        location: 'DENVER, CO',
        countryIso2: 'US',
        carrierCode: 'fedex',
        rel: 'origin',
        rawStatus: 'DE/DE',
      },
      {
        externalId: 'fedex:2024-03-04T12:01:00-07:00:PU:DENR',
        checkpointDate: new Date('2024-03-04T19:01:00Z'),
        status: 'in_transit',
        info: 'Picked up',
        location: 'DENVER, CO',
        countryIso2: 'US',
        carrierCode: 'fedex',
        rel: 'origin',
        rawStatus: 'PU/PU',
      },
    ]);
    expect(result.facts).toEqual({
      expectedDeliveryDate: new Date('2024-03-08T05:00:00Z'),
      destinationCarrier: 'usps',
    });
  });

  it('takes the expected delivery from the estimate, then the window, then the commitment', () => {
    const facts = (r: FedexTrackResult) => {
      const mapped = mapFedexResult(r);
      if (mapped instanceof TrackingProviderError) throw mapped;
      return mapped.facts;
    };
    expect(
      facts({
        dateAndTimes: [{ type: 'COMMITMENT', dateTime: '2024-03-09T20:00:00-05:00' }],
        estimatedDeliveryTimeWindow: {
          window: { begins: '2024-03-08T09:00:00-05:00', ends: '2024-03-08T13:00:00-05:00' },
        },
      }).expectedDeliveryDate,
    ).toEqual(new Date('2024-03-08T18:00:00Z'));
    expect(
      facts({ dateAndTimes: [{ type: 'COMMITMENT', dateTime: '2024-03-09T20:00:00-05:00' }] })
        .expectedDeliveryDate,
    ).toEqual(new Date('2024-03-10T01:00:00Z'));
    expect(facts({}).expectedDeliveryDate).toBeNull();
    expect(facts({}).destinationCarrier).toBeNull();
  });

  it('reads "not found" as nothing known, other per-number errors as permanent', () => {
    expect(
      mapFedexResult({ error: { code: 'TRACKING.TRACKINGNUMBER.NOTFOUND', message: 'x' } }),
    ).toEqual({ checkpoints: [], facts: {} });
    expect(mapFedexResult({ error: { code: 'TRACKING.DATA.NOTFOUND' } })).toEqual({
      checkpoints: [],
      facts: {},
    });
    const invalid = mapFedexResult({
      error: { code: 'TRACKING.TRACKINGNUMBER.INVALID', message: 'Invalid tracking number.' },
    });
    expect(invalid).toBeInstanceOf(TrackingProviderError);
    expect((invalid as TrackingProviderError).kind).toBe('permanent');
    // Our words in the message; the server's only in the operator's detail.
    expect((invalid as TrackingProviderError).message).not.toContain(
      'TRACKING.TRACKINGNUMBER.INVALID',
    );
    expect((invalid as TrackingProviderError).detail).toContain('TRACKING.TRACKINGNUMBER.INVALID');
  });

  it('indexes results by number, preferring a result without error for a reused number', () => {
    const byNumber = fedexResultsByNumber({
      output: {
        completeTrackResults: [
          {
            trackingNumber: '794843185271',
            trackResults: [{ error: { code: 'TRACKING.TRACKINGNUMBER.NOTFOUND' } }, RESULT],
          },
          { trackResults: [{ trackingNumberInfo: { trackingNumber: 'abc123' } }] },
        ],
      },
    });
    expect(byNumber.get('794843185271')).toBe(RESULT);
    expect(byNumber.has('ABC123')).toBe(true);
    expect(fedexResultsByNumber('oops').size).toBe(0);
  });
});
