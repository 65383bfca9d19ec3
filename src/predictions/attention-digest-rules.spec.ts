import { EventTypes } from '../events/event-types';
import { digestMessage, digestPeriod } from './attention-digest-rules';

describe('attention digest rules', () => {
  it('covers the last full hour that ended five minutes ago or more', () => {
    expect(digestPeriod(new Date('2026-11-28T11:05:00Z'))).toEqual({
      start: new Date('2026-11-28T10:00:00Z'),
      end: new Date('2026-11-28T11:00:00Z'),
    });
    expect(digestPeriod(new Date('2026-11-28T11:04:59Z'))).toEqual({
      start: new Date('2026-11-28T09:00:00Z'),
      end: new Date('2026-11-28T10:00:00Z'),
    });
  });

  const period = digestPeriod(new Date('2026-11-28T11:30:00Z'));

  it('names the reasons most urgent first, then the moved estimates', () => {
    const counts = new Map<string, number>([
      [EventTypes.shipmentStalled, 2],
      [EventTypes.shipmentException, 1],
      [EventTypes.shipmentDeliveryPredictionChanged, 5],
    ]);
    expect(digestMessage('Acme', period, counts)).toBe(
      'Acme, 10:00–11:00 UTC: 3 parcels started to need attention (1 exception, 2 stalled); ' +
        'the delivery estimate of 5 parcels moved by a day or more.',
    );
  });

  it('speaks of one parcel in the singular, and says nothing without events', () => {
    expect(digestMessage('Acme', period, new Map([[EventTypes.shipmentLate, 1]]))).toBe(
      'Acme, 10:00–11:00 UTC: 1 parcel started to need attention (1 late).',
    );
    expect(
      digestMessage('Acme', period, new Map([[EventTypes.shipmentDeliveryPredictionChanged, 1]])),
    ).toBe('Acme, 10:00–11:00 UTC: the delivery estimate of 1 parcel moved by a day or more.');
    expect(digestMessage('Acme', period, new Map())).toBeNull();
  });
});
