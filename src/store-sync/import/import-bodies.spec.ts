import type { PlannedShipment } from '../rules/import-plan';
import { mapStoreOrder } from '../rules/order-mapping';
import type { StoreOrder } from '../store-platform';
import { itemBody, orderBody, shipmentBody } from './import-bodies';

const scope = { workspaceId: 'ws-1', workflowId: 'wf-1' };

const store: StoreOrder = {
  platform: 'bigcommerce',
  id: '101',
  number: '101',
  createdAt: null,
  updatedAt: new Date('2024-05-01T00:00:00Z'),
  email: 'ada@example.com',
  phone: null,
  currency: null,
  subtotal: '10',
  total: '12',
  status: null,
  shippingAddress: null,
  billingAddress: null,
  url: null,
  lines: [
    {
      id: 'L1',
      name: 'Mug',
      sku: 'MUG',
      quantity: 2,
      price: '5',
      productId: null,
      variantId: null,
      options: {},
      imageUrl: null,
    },
    {
      id: 'L2',
      name: 'Cap',
      sku: 'CAP',
      quantity: 1,
      price: '2',
      productId: null,
      variantId: null,
      options: {},
      imageUrl: null,
    },
  ],
  shipments: [
    {
      id: 'P1',
      trackingNumbers: ['1Z999AA10123456784'],
      carrierName: 'UPS',
      trackingUrl: null,
      createdAt: null,
      lines: [
        { lineId: 'L1', quantity: 2 },
        { lineId: 'L2', quantity: 1 },
      ],
      address: null,
    },
  ],
};
const records = mapStoreOrder(store);

describe('import bodies', () => {
  it('posts an order with its store ids and puts only what the store keeps', () => {
    const post = orderBody(records.order, scope, true);
    expect(post).toMatchObject({
      workspace: '/workspaces/ws-1',
      orderNumber: '101',
      externalSourceIntegration: '/workflows/wf-1',
      externalSourceSyncId: '101',
      email: 'ada@example.com',
    });
    // No currency from the store: the order keeps the resource's default.
    expect(post).not.toHaveProperty('currency');
    const put = orderBody(records.order, scope, false);
    expect(put).not.toHaveProperty('orderNumber');
    expect(put).not.toHaveProperty('externalSourceSyncId');
    expect(put.shippingAddress).toEqual(expect.objectContaining({ city: null }));
  });

  it('posts lines into their order, puts their fields', () => {
    expect(itemBody(records.items[0], '/orders/o-1', '/workflows/wf-1', true)).toMatchObject({
      order: '/orders/o-1',
      externalSourceSyncId: 'L1',
      qty: 2,
    });
    expect(itemBody(records.items[0], '/orders/o-1', '/workflows/wf-1', false)).not.toHaveProperty(
      'order',
    );
  });

  it('keeps a shipment’s items by id, adds the new ones, and names the carrier on create or move', () => {
    const planned = (fields: Partial<PlannedShipment>): PlannedShipment => ({
      record: records.shipments[0],
      digest: 'd',
      existing: null,
      write: true,
      moved: false,
      ...fields,
    });
    const itemIds = new Map([
      ['L1', 'oi-1'],
      ['L2', 'oi-2'],
    ]);
    const created = shipmentBody(
      planned({}),
      scope,
      '/orders/o-1',
      '/workflows/wf-1',
      itemIds,
      new Map(),
      true,
    );
    expect(created).toMatchObject({
      workspace: '/workspaces/ws-1',
      trackingNumber: '1Z999AA10123456784',
      originCarrier: 'ups',
      orders: ['/orders/o-1'],
      externalSourceSyncId: 'P1',
      shipmentItems: [
        { orderItem: '/order_items/oi-1', qty: 2, externalSourceIntegration: '/workflows/wf-1' },
        { orderItem: '/order_items/oi-2', qty: 1, externalSourceIntegration: '/workflows/wf-1' },
      ],
    });
    const existing = {
      kind: 'shipment' as const,
      storeId: 'P1',
      recordId: 's-1',
      digest: 'x',
      trackingNumber: '1Z999AA10123456784',
    };
    const updated = shipmentBody(
      planned({ existing }),
      scope,
      '/orders/o-1',
      '/workflows/wf-1',
      new Map([['L1', 'oi-1']]), // L2's line was refused: left out
      new Map([['s-1', [{ id: 'si-1', orderItemId: 'oi-1' }]]]),
      false,
    );
    expect(updated.shipmentItems).toEqual([{ '@id': '/shipment_items/si-1', qty: 2 }]);
    expect(updated).not.toHaveProperty('originCarrier');
    expect(updated).not.toHaveProperty('externalSourceSyncId');
    const moved = shipmentBody(
      planned({ existing, moved: true }),
      scope,
      '/orders/o-1',
      '/workflows/wf-1',
      itemIds,
      new Map(),
      false,
    );
    expect(moved.originCarrier).toBe('ups');
  });
});
