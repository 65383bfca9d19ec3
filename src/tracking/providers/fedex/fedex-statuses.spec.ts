import { TRACKING_STATUS_CODES, type TrackingStatusCode } from '../../statuses';
import {
  FEDEX_EVENT_CODES,
  FEDEX_HANDOVER_CODES,
  FEDEX_UNKNOWN_STATUS,
  fedexStatus,
} from './fedex-statuses';

const ROWS: [string, TrackingStatusCode][] = [
  ['OC', 'pre_transit'],
  ['IN', 'pre_transit'],
  ['AP', 'pre_transit'],
  ['EP', 'pre_transit'],
  ['PD', 'pre_transit'],
  ['PU', 'in_transit'],
  ['PX', 'in_transit'],
  ['AA', 'in_transit'],
  ['AC', 'in_transit'],
  ['AF', 'in_transit'],
  ['AR', 'in_transit'],
  ['AX', 'in_transit'],
  ['BR', 'in_transit'],
  ['CC', 'in_transit'],
  ['CD', 'in_transit'],
  ['CH', 'in_transit'],
  ['CP', 'in_transit'],
  ['CU', 'in_transit'],
  ['DD', 'in_transit'],
  ['DP', 'in_transit'],
  ['DR', 'in_transit'],
  ['DS', 'in_transit'],
  ['DY', 'in_transit'],
  ['EA', 'in_transit'],
  ['EO', 'in_transit'],
  ['FD', 'in_transit'],
  ['IT', 'in_transit'],
  ['IX', 'in_transit'],
  ['LO', 'in_transit'],
  ['OF', 'in_transit'],
  ['OX', 'in_transit'],
  ['PF', 'in_transit'],
  ['PL', 'in_transit'],
  ['PM', 'in_transit'],
  ['SF', 'in_transit'],
  ['SP', 'in_transit'],
  ['TR', 'in_transit'],
  ['AD', 'delivery_in_progress'],
  ['ED', 'delivery_in_progress'],
  ['OD', 'delivery_in_progress'],
  ['DL', 'delivered'],
  ['DE', 'unsuccessful_delivery'],
  ['SE', 'unsuccessful_delivery'],
  ['HL', 'available_for_pickup'],
  ['HP', 'available_for_pickup'],
  ['CA', 'cancelled'],
  ['RS', 'return_to_sender'],
];

describe('FedEx status mapping', () => {
  it('has exactly the rows tested below', () => {
    expect(Object.keys(FEDEX_EVENT_CODES).sort()).toEqual(ROWS.map(([code]) => code).sort());
  });

  it.each(ROWS)('event type %s is %s', (code, status) => {
    expect(TRACKING_STATUS_CODES).toContain(status);
    expect(fedexStatus(code)).toBe(status);
    expect(fedexStatus(` ${code.toLowerCase()} `)).toBe(status);
  });

  it('falls back to the derived status code, then to in_transit', () => {
    expect(fedexStatus('ZZ', 'DL')).toBe('delivered');
    expect(fedexStatus(undefined, 'OD')).toBe('delivery_in_progress');
    expect(fedexStatus('ZZ', 'QQ')).toBe(FEDEX_UNKNOWN_STATUS);
    expect(FEDEX_UNKNOWN_STATUS).toBe('in_transit');
  });

  it('prefers the event type to the derived code', () => {
    expect(fedexStatus('HL', 'IT')).toBe('available_for_pickup');
  });

  it.each([
    ['AX', 'usps'],
    ['OX', 'usps'],
    ['AC', 'canada-post'],
  ])('scan %s hands over to %s', (code, carrier) => {
    expect(FEDEX_HANDOVER_CODES[code]).toBe(carrier);
  });

  it('has a test row for every handover', () => {
    expect(Object.keys(FEDEX_HANDOVER_CODES).sort()).toEqual(['AC', 'AX', 'OX']);
  });
});
