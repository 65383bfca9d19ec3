import { findUpsPackage, mapUpsPackage, type UpsPackage } from './ups-mapping';
import { parseUpsPush } from './ups-push';

const NUMBER = '1Z204W4R0308071865';

/** A Ground Saver package as the Track API answers it (activities newest first). */
const PACKAGE: UpsPackage = {
  trackingNumber: NUMBER,
  deliveryDate: [
    { type: 'SDD', date: '20240424' },
    { type: 'RDD', date: '20240425' },
  ],
  packageAddress: [
    { type: 'ORIGIN', address: { city: 'Hickory', stateProvince: 'NC', countryCode: 'US' } },
    { type: 'DESTINATION', address: { city: 'Toronto', countryCode: 'CA' } },
  ],
  alternateTrackingNumber: [{ type: 'USPS_PIC', number: '92419900000033499522966220' }],
  activity: [
    {
      date: '20240423',
      time: '091519',
      gmtDate: '20240423',
      gmtTime: '131519',
      gmtOffset: '-04:00',
      location: { address: { city: 'Charlotte', stateProvince: 'NC', countryCode: 'US' } },
      status: { type: 'I', code: 'OT', description: 'Out for Delivery', statusCode: '021' },
    },
    {
      date: '20240422',
      time: '212901',
      gmtDate: '20240423',
      gmtTime: '12901',
      gmtOffset: '-04:00',
      location: { address: { city: 'Hickory', stateProvince: 'NC', country: 'US' } },
      status: { type: 'I', code: 'OR', description: 'On the Way', statusCode: '005' },
    },
    {
      date: '20240422',
      time: '091230',
      location: { address: { country: 'US' } },
      status: { type: 'M', code: 'MP', description: 'Shipment Ready for UPS', statusCode: '003' },
    },
    // UPS sometimes repeats an activity verbatim.
    {
      date: '20240422',
      time: '091230',
      location: { address: { country: 'US' } },
      status: { type: 'M', code: 'MP', description: 'Shipment Ready for UPS', statusCode: '003' },
    },
    { date: 'garbage', status: { type: 'I' } },
  ],
};

describe('UPS Track answer mapping', () => {
  const result = mapUpsPackage(PACKAGE);

  it('maps every readable activity once, date at its offset, status, place and raw status', () => {
    expect(result.checkpoints).toEqual([
      {
        externalId: 'ups:20240423T091519:OT:CHARLOTTE',
        checkpointDate: new Date('2024-04-23T13:15:19Z'),
        status: 'delivery_in_progress',
        info: 'Out for Delivery',
        location: 'Charlotte, NC',
        countryIso2: 'US',
        carrierCode: 'ups',
        rel: 'origin',
        rawStatus: 'I/OT/021',
      },
      {
        externalId: 'ups:20240422T212901:OR:HICKORY',
        checkpointDate: new Date('2024-04-23T01:29:01Z'),
        status: 'in_transit',
        info: 'On the Way',
        location: 'Hickory, NC',
        countryIso2: 'US',
        carrierCode: 'ups',
        rel: 'origin',
        rawStatus: 'I/OR/005',
      },
      {
        externalId: 'ups:20240422T091230:MP:',
        checkpointDate: new Date('2024-04-22T09:12:30Z'),
        status: 'pre_transit',
        info: 'Shipment Ready for UPS',
        location: null,
        countryIso2: 'US',
        carrierCode: 'ups',
        rel: 'origin',
        rawStatus: 'M/MP/003',
      },
    ]);
  });

  it('takes the rescheduled delivery date over the scheduled one', () => {
    expect(result.facts.expectedDeliveryDate).toEqual(new Date('2024-04-25T00:00:00Z'));
    const scheduledOnly = mapUpsPackage({
      ...PACKAGE,
      deliveryDate: [{ type: 'SDD', date: '20240424' }],
    });
    expect(scheduledOnly.facts.expectedDeliveryDate).toEqual(new Date('2024-04-24T00:00:00Z'));
    const deliveredOnly = mapUpsPackage({
      ...PACKAGE,
      deliveryDate: [{ type: 'DEL', date: '20240423' }],
    });
    expect(deliveredOnly.facts.expectedDeliveryDate).toBeNull();
  });

  it('reports the USPS last mile from the USPS_PIC alternate number, and the countries', () => {
    expect(result.facts.destinationCarrier).toBe('usps');
    expect(result.facts.originCountryIso2).toBe('US');
    expect(result.facts.destinationCountryIso2).toBe('CA');
    expect(
      mapUpsPackage({ ...PACKAGE, alternateTrackingNumber: [] }).facts.destinationCarrier,
    ).toBeNull();
  });

  it('finds the package of the asked number, case-insensitively', () => {
    const body = {
      trackResponse: {
        shipment: [
          { package: [{ trackingNumber: '1ZOTHER', activity: [] }, { trackingNumber: NUMBER }] },
        ],
      },
    };
    expect(findUpsPackage(body, NUMBER.toLowerCase())?.trackingNumber).toBe(NUMBER);
    expect(findUpsPackage({ trackResponse: { shipment: [{ warnings: [] }] } }, NUMBER)).toBeNull();
    expect(findUpsPackage('not json', NUMBER)).toBeNull();
    expect(findUpsPackage(null, NUMBER)).toBeNull();
  });

  it('gives a pushed event the id and status of the same event polled later', () => {
    const [pushed] = parseUpsPush({
      trackingNumber: NUMBER,
      localActivityDate: '20240423',
      localActivityTime: '091519',
      activityLocation: { city: 'Charlotte', stateProvince: 'NC', postalCode: '', country: 'US' },
      activityStatus: {
        type: 'I',
        code: 'OT',
        description: 'Out for Delivery',
        descriptionCode: '021',
      },
      scheduledDeliveryDate: '20240423',
      gmtActivityDate: '20240423',
      gmtActivityTime: '131519',
    });
    expect(pushed.result.checkpoints).toEqual([result.checkpoints[0]]);
  });
});
