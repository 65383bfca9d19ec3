import { TRACKING_STATUS_CODES, type TrackingStatusCode } from '../../statuses';
import {
  USPS_EVENT_CODES,
  USPS_EVENT_WORDINGS,
  USPS_STATUS_CATEGORIES,
  USPS_UNKNOWN_STATUS,
  uspsStatus,
} from './usps-statuses';

const CODES: [string, TrackingStatusCode][] = [
  ['MA', 'pre_transit'],
  ['GX', 'cancelled'],
  ['03', 'in_transit'],
  ['10', 'in_transit'],
  ['OF', 'delivery_in_progress'],
  ['01', 'delivered'],
  ['02', 'unsuccessful_delivery'],
  ['16', 'available_for_pickup'],
];

const WORDINGS: [string, TrackingStatusCode][] = [
  ['Shipping Label Cancelled', 'cancelled'],
  ['Pre-Shipment Info Sent to USPS, USPS Awaiting Item', 'pre_transit'],
  ['Shipping Label Created, USPS Awaiting Item', 'pre_transit'],
  ['Return to Sender Processed', 'return_to_sender'],
  ['Delivered, To Original Sender', 'return_to_sender'],
  ['Out for Delivery', 'delivery_in_progress'],
  ['Available for Pickup', 'available_for_pickup'],
  ['Held at Post Office, At Customer Request', 'available_for_pickup'],
  ['Notice Left (No Authorized Recipient Available)', 'unsuccessful_delivery'],
  ['Delivery Attempted - No Access to Delivery Location', 'unsuccessful_delivery'],
  ['Undeliverable as Addressed', 'unsuccessful_delivery'],
  ['Addressee Unknown', 'unsuccessful_delivery'],
  ['Insufficient Address', 'unsuccessful_delivery'],
  ['Refused', 'unsuccessful_delivery'],
  ['No Secure Location Available', 'unsuccessful_delivery'],
  ['Receptacle Full / Item Oversized', 'unsuccessful_delivery'],
  ['Business Closed', 'unsuccessful_delivery'],
  ['Delivered, In/At Mailbox', 'delivered'],
  ['Delivered, Front Door/Porch', 'delivered'],
];

const CATEGORIES: [string, TrackingStatusCode][] = [
  ['Pre-Shipment', 'pre_transit'],
  ['Accepted', 'in_transit'],
  ['In Transit', 'in_transit'],
  ['Out for Delivery', 'delivery_in_progress'],
  ['Delivered', 'delivered'],
  ['Available for Pickup', 'available_for_pickup'],
  ['Delivery Attempt', 'unsuccessful_delivery'],
  ['Alert', 'unsuccessful_delivery'],
  ['Return to Sender', 'return_to_sender'],
];

describe('USPS status mapping', () => {
  it('has exactly the code and category rows tested below', () => {
    expect(Object.keys(USPS_EVENT_CODES).sort()).toEqual(CODES.map(([c]) => c).sort());
    expect(Object.keys(USPS_STATUS_CATEGORIES).sort()).toEqual(
      CATEGORIES.map(([c]) => c.toLowerCase()).sort(),
    );
  });

  it('maps only to our twelve statuses', () => {
    for (const s of [
      ...Object.values(USPS_EVENT_CODES),
      ...USPS_EVENT_WORDINGS.map((w) => w.status),
      ...Object.values(USPS_STATUS_CATEGORIES),
      USPS_UNKNOWN_STATUS,
    ]) {
      expect(TRACKING_STATUS_CODES).toContain(s);
    }
  });

  it.each(CODES)('event code %s is %s, whatever the wording', (eventCode, status) => {
    expect(uspsStatus({ eventCode, eventType: 'Arrived at USPS Regional Facility' })).toBe(status);
  });

  it.each(WORDINGS)('event "%s" is %s', (eventType, status) => {
    expect(uspsStatus({ eventType })).toBe(status);
  });

  it('has one wording row tested per rule', () => {
    for (const rule of USPS_EVENT_WORDINGS) {
      expect(WORDINGS.some(([w]) => rule.pattern.test(w))).toBe(true);
    }
  });

  it.each(CATEGORIES)(
    'package category %s is %s for an unknown event',
    (statusCategory, status) => {
      expect(uspsStatus({ eventType: 'Arrived at USPS Facility', statusCategory })).toBe(status);
    },
  );

  it('reads anything else as in_transit', () => {
    expect(uspsStatus({ eventType: 'Departed USPS Regional Facility' })).toBe('in_transit');
    expect(uspsStatus({})).toBe('in_transit');
  });
});
