import { storePushes, trackingChangeOf, type StatusChangeFacts } from './push-plan';
import { storeSyncOptions } from './store-connection';

const facts = (fields: Partial<StatusChangeFacts> = {}): StatusChangeFacts => ({
  storeOrderId: '5001',
  storeShipmentId: '900:2',
  payload: { trackingStatus: 'delivered', lastStatusUpdate: '2024-05-03T08:00:00Z' },
  recordedAt: new Date('2024-05-03T08:00:05Z'),
  trackingNumber: 'TM200123TM',
  carrierName: 'UPS',
  expectedDeliveryDate: null,
  checkpoint: {
    status: 'delivered',
    checkpointDate: new Date('2024-05-03T07:55:00Z'),
    location: 'Springfield hub',
    countryIso2: 'US',
    info: ' Left at the door ',
  },
  trackingPageUrl: 'https://t.example/t/abc',
  ...fields,
});

const options = (parameters: Record<string, unknown> = {}) =>
  storeSyncOptions({ type: 'x', parameters, secrets: {} });

describe('trackingChangeOf', () => {
  it('takes where and when from the checkpoint reporting the status', () => {
    expect(trackingChangeOf(facts())).toEqual({
      orderSyncId: '5001',
      shipmentSyncId: '900:2',
      trackingNumber: 'TM200123TM',
      carrierName: 'UPS',
      status: 'delivered',
      happenedAt: new Date('2024-05-03T07:55:00Z'),
      expectedDeliveryDate: null,
      location: { city: 'Springfield hub', state: null, countryIso2: 'US', postcode: null },
      message: 'Left at the door',
      trackingPageUrl: 'https://t.example/t/abc',
    });
  });

  it('uses the status time when the latest checkpoint says something else, and no place', () => {
    const change = trackingChangeOf(
      facts({
        payload: { trackingStatus: 'in_transit', lastStatusUpdate: '2024-05-02T00:00:00Z' },
      }),
    );
    expect(change).toMatchObject({
      status: 'in_transit',
      happenedAt: new Date('2024-05-02T00:00:00Z'),
      location: null,
      message: null,
    });
    expect(
      trackingChangeOf(facts({ payload: { trackingStatus: 'in_transit' }, checkpoint: null }))
        ?.happenedAt,
    ).toEqual(new Date('2024-05-03T08:00:05Z'));
  });

  it('is nothing for a status that is not ours', () => {
    expect(trackingChangeOf(facts({ payload: { trackingStatus: 'lost' } }))).toBeNull();
    expect(trackingChangeOf(facts({ payload: {} }))).toBeNull();
  });
});

describe('storePushes', () => {
  const change = trackingChangeOf(facts())!;

  it('sends Shopify one event for the fulfillment (its own id), never a status twice', () => {
    const context = { alreadySent: [], orderStatuses: [], options: options() };
    expect(storePushes('shopify', change, context)).toEqual([
      expect.objectContaining({
        kind: 'shopify.fulfillmentEvent',
        fulfillmentId: '900',
        status: 'DELIVERED',
        city: 'Springfield hub',
        country: 'US',
      }),
    ]);
    expect(storePushes('shopify', change, { ...context, alreadySent: ['DELIVERED'] })).toEqual([]);
  });

  it('sends WooCommerce a note, and completes the order when the workflow says so and all is delivered', () => {
    const pushes = storePushes('woocommerce', change, {
      alreadySent: [],
      orderStatuses: ['delivered', 'delivered'],
      options: options({ completeOnDelivery: true, customerNotes: true }),
    });
    expect(pushes).toEqual([
      expect.objectContaining({ kind: 'woocommerce.note', orderId: '5001', customerNote: true }),
      { kind: 'woocommerce.complete', orderId: '5001' },
    ]);
    expect(
      storePushes('woocommerce', change, {
        alreadySent: [],
        orderStatuses: ['delivered', 'in_transit'],
        options: options({ completeOnDelivery: true }),
      }).map((p) => p.kind),
    ).toEqual(['woocommerce.note']);
  });

  it('sends BigCommerce its status on delivery only when the workflow names one', () => {
    const all = { alreadySent: [], orderStatuses: ['delivered' as const] };
    expect(storePushes('bigcommerce', change, { ...all, options: options() })).toEqual([]);
    expect(
      storePushes('bigcommerce', change, { ...all, options: options({ statusIdOnDelivery: 10 }) }),
    ).toEqual([{ kind: 'bigcommerce.status', orderId: '5001', statusId: 10 }]);
  });
});
