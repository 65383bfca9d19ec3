import { TRACKING_STATUS_CODES, type TrackingStatusCode } from '../../tracking/statuses';
import {
  SHOPIFY_EVENT_FOR_STATUS,
  SHOPIFY_EVENT_STATUSES,
  shopifyEventStatusFor,
  shopifyFulfillmentEvent,
} from './shopify-events';
import {
  BIGCOMMERCE_COMPLETED_STATUS_ID,
  bigcommercePushes,
  woocommerceNoteText,
  woocommercePushes,
} from './store-push';
import type { TrackingChange } from './tracking-change';

const change = (fields: Partial<TrackingChange> = {}): TrackingChange => ({
  orderSyncId: '5001',
  shipmentSyncId: '900',
  trackingNumber: '1Z999AA10123456784',
  carrierName: 'UPS',
  status: 'in_transit',
  happenedAt: new Date('2024-05-02T14:03:00Z'),
  expectedDeliveryDate: new Date('2024-05-04T00:00:00Z'),
  location: { city: 'Louisville', state: 'KY', countryIso2: 'US', postcode: '40201' },
  message: 'Departed facility',
  trackingPageUrl: 'https://track.example/t/abc',
  ...fields,
});

describe('Shopify fulfillment events', () => {
  it.each<[TrackingStatusCode, string | null]>([
    ['pre_transit', 'CONFIRMED'],
    ['no_info', null],
    ['in_transit', 'IN_TRANSIT'],
    ['delivery_in_progress', 'OUT_FOR_DELIVERY'],
    ['available_for_pickup', 'READY_FOR_PICKUP'],
    ['unsuccessful_delivery', 'ATTEMPTED_DELIVERY'],
    ['delivered', 'DELIVERED'],
    ['error', 'FAILURE'],
    ['return_to_sender', 'FAILURE'],
    ['cancelled', 'FAILURE'],
    ['transit_limit_exceeded', 'DELAYED'],
    ['expired', null],
  ])('maps %s to %s', (status, event) => {
    expect(SHOPIFY_EVENT_FOR_STATUS[status]).toBe(event);
  });

  it('has a row for every status, each a Shopify event or nothing', () => {
    expect(Object.keys(SHOPIFY_EVENT_FOR_STATUS).sort()).toEqual([...TRACKING_STATUS_CODES].sort());
    for (const event of Object.values(SHOPIFY_EVENT_FOR_STATUS)) {
      if (event !== null) expect(SHOPIFY_EVENT_STATUSES).toContain(event);
    }
  });

  it('sends the pickup first, then in transit, then nothing more for in_transit', () => {
    expect(shopifyEventStatusFor('in_transit', [])).toBe('CARRIER_PICKED_UP');
    expect(shopifyEventStatusFor('in_transit', ['CONFIRMED', 'CARRIER_PICKED_UP'])).toBe(
      'IN_TRANSIT',
    );
    expect(shopifyEventStatusFor('in_transit', ['CARRIER_PICKED_UP', 'IN_TRANSIT'])).toBeNull();
    // Someone else already said in transit: the pickup is not news any more.
    expect(shopifyEventStatusFor('in_transit', ['IN_TRANSIT'])).toBeNull();
  });

  it('never sends a status the fulfillment already shows', () => {
    for (const status of TRACKING_STATUS_CODES) {
      const first = shopifyEventStatusFor(status, []);
      if (first === null) continue;
      const second = shopifyEventStatusFor(status, [first]);
      expect(second === null || second !== first).toBe(true);
      if (second) expect(shopifyEventStatusFor(status, [first, second])).toBeNull();
    }
    expect(shopifyEventStatusFor('cancelled', ['FAILURE'])).toBeNull();
    expect(shopifyEventStatusFor('delivered', ['DELIVERED'])).toBeNull();
  });

  it('builds the fulfillmentEventCreate with place and estimated delivery', () => {
    expect(shopifyFulfillmentEvent(change({ shipmentSyncId: '900:2' }), [])).toEqual({
      kind: 'shopify.fulfillmentEvent',
      fulfillmentId: '900',
      status: 'CARRIER_PICKED_UP',
      happenedAt: '2024-05-02T14:03:00.000Z',
      estimatedDeliveryAt: '2024-05-04T00:00:00.000Z',
      message: 'Departed facility',
      city: 'Louisville',
      province: 'KY',
      country: 'US',
      zip: '40201',
    });
    expect(shopifyFulfillmentEvent(change({ status: 'no_info', location: null }), [])).toBeNull();
  });
});

describe('WooCommerce pushes', () => {
  it('writes a note with the status, place, time, estimate and tracking page', () => {
    expect(woocommerceNoteText(change())).toBe(
      'Shipment 1Z999AA10123456784 (UPS): In transit. Louisville, KY, US, 2024-05-02 14:03 UTC. ' +
        'Departed facility. Expected delivery: 2024-05-04. Track it: https://track.example/t/abc.',
    );
  });

  it('keeps the note short when little is known, and says nothing for no_info', () => {
    expect(
      woocommerceNoteText(
        change({
          status: 'delivered',
          carrierName: null,
          location: null,
          message: null,
          trackingPageUrl: null,
        }),
      ),
    ).toBe('Shipment 1Z999AA10123456784: Delivered. 2024-05-02 14:03 UTC.');
    expect(woocommerceNoteText(change({ status: 'no_info' }))).toBeNull();
  });

  it('completes the order only when asked and every parcel is delivered', () => {
    const delivered = change({ status: 'delivered' });
    const options = { customerNote: true, completeOnDelivery: true };
    expect(woocommercePushes(delivered, ['delivered', 'delivered'], options)).toEqual([
      expect.objectContaining({ kind: 'woocommerce.note', orderId: '5001', customerNote: true }),
      { kind: 'woocommerce.complete', orderId: '5001' },
    ]);
    expect(woocommercePushes(delivered, ['delivered', 'in_transit'], options)).toEqual([
      expect.objectContaining({ kind: 'woocommerce.note' }),
    ]);
    expect(
      woocommercePushes(delivered, ['delivered'], {
        customerNote: false,
        completeOnDelivery: false,
      }),
    ).toEqual([expect.objectContaining({ kind: 'woocommerce.note', customerNote: false })]);
    expect(woocommercePushes(change(), ['in_transit'], options)).toHaveLength(1);
  });
});

describe('BigCommerce pushes', () => {
  it('sets the chosen status once every parcel is delivered', () => {
    const delivered = change({ status: 'delivered' });
    expect(bigcommercePushes(delivered, ['delivered'], BIGCOMMERCE_COMPLETED_STATUS_ID)).toEqual([
      { kind: 'bigcommerce.status', orderId: '5001', statusId: 10 },
    ]);
    expect(bigcommercePushes(delivered, ['delivered', null], 10)).toEqual([]);
    expect(bigcommercePushes(delivered, ['delivered'], null)).toEqual([]);
    expect(bigcommercePushes(change(), ['in_transit'], 10)).toEqual([]);
  });
});
