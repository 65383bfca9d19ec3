import {
  passesFilter,
  referenceAuthorization,
  referenceChangeOf,
  referenceWebhookBody,
} from './reference-webhook-body';

describe('the reference webhook body', () => {
  it('tells shipment events with the shipment as JSON-LD', () => {
    const change = referenceChangeOf('shipment.updated', {
      shipment: '/shipments/s1',
      changedFields: ['email'],
      id: 's1',
      email: 'a@example.com',
    });
    expect(change).toEqual({
      entity: 'shipments',
      event: 'update',
      data: { '@id': '/shipments/s1', '@type': 'Shipment', id: 's1', email: 'a@example.com' },
      updatedFields: ['email'],
    });
    expect(
      referenceChangeOf('shipment.created', { shipment: '/shipments/s1' })?.updatedFields,
    ).toEqual([]);
    expect(
      referenceChangeOf('shipment.status_changed', {
        shipment: '/shipments/s2',
        trackingStatus: 'delivered',
      }),
    ).toMatchObject({
      entity: 'shipments',
      event: 'update',
      updatedFields: ['trackingStatus'],
      data: { id: 's2' },
    });
  });

  it('tells prediction and attention events as updates of those fields', () => {
    expect(
      referenceChangeOf('shipment.delivery_prediction_changed', {
        shipment: '/shipments/s3',
        previous: {},
        current: {},
      }),
    ).toEqual({
      entity: 'shipments',
      event: 'update',
      data: { '@id': '/shipments/s3', '@type': 'Shipment', id: 's3' },
      updatedFields: ['deliveryPrediction', 'expectedDeliveryDate'],
    });
    for (const type of [
      'shipment.stalled',
      'shipment.late',
      'shipment.waiting',
      'shipment.exception',
    ])
      expect(
        referenceChangeOf(type, { shipment: '/shipments/s4', attention: 'late' })?.updatedFields,
      ).toEqual(['attention']);
  });

  it('tells record changes and ignores events it has no name for', () => {
    const change = referenceChangeOf('order_item.deleted', {
      '@id': '/order_items/i',
      '@type': 'OrderItem',
    });
    expect(change).toMatchObject({ entity: 'order_items', event: 'delete', updatedFields: [] });
    expect(referenceChangeOf('workspace.created', {})).toBeNull();
    expect(referenceChangeOf('order.renamed', {})).toBeNull();
  });

  it('tells an indirect update by its cause, beside the record, not in it', () => {
    const shipment = referenceChangeOf('shipment.updated', {
      shipment: '/shipments/s1',
      changedFields: ['orders'],
      cause: 'order',
      id: 's1',
    })!;
    expect(shipment).toEqual({
      entity: 'shipments',
      event: 'update',
      data: { '@id': '/shipments/s1', '@type': 'Shipment', id: 's1' },
      updatedFields: ['orders'],
      cause: 'order',
    });
    const order = referenceChangeOf('order.updated', {
      '@id': '/orders/o',
      changedFields: ['shipments'],
      cause: 'shipment',
    })!;
    expect(order.data).toEqual({ '@id': '/orders/o' });
    expect(JSON.parse(referenceWebhookBody([order])).data).toEqual([
      {
        entity: 'orders',
        event: 'update',
        data: { '@id': '/orders/o' },
        updatedFields: ['shipments'],
        cause: 'shipment',
      },
    ]);
    // A record's own write has none.
    expect(referenceChangeOf('order.updated', { changedFields: ['email'] })).not.toHaveProperty(
      'cause',
    );
  });

  it('filters by entity, event and changed field', () => {
    const update = referenceChangeOf('order.updated', { changedFields: ['email'] })!;
    const none = { entity: null, event: null, field: null };
    expect(passesFilter(update, none)).toBe(true);
    expect(passesFilter(update, { ...none, entity: 'shipments' })).toBe(false);
    expect(passesFilter(update, { ...none, event: 'create' })).toBe(false);
    expect(passesFilter(update, { ...none, field: 'email' })).toBe(true);
    expect(passesFilter(update, { ...none, field: 'total' })).toBe(false);
    const create = referenceChangeOf('order.created', {})!;
    expect(passesFilter(create, { ...none, field: 'total' })).toBe(true);
  });

  it('writes the body and the authentication header', () => {
    const change = referenceChangeOf('order.created', { '@id': '/orders/o' })!;
    expect(JSON.parse(referenceWebhookBody([change]))).toEqual({
      data: [
        { entity: 'orders', event: 'create', data: { '@id': '/orders/o' }, updatedFields: [] },
      ],
    });
    expect(referenceAuthorization({ auth_type: 'basic', username: 'u', password: 'p' })).toBe(
      `Basic ${Buffer.from('u:p').toString('base64')}`,
    );
    expect(referenceAuthorization({ auth_type: 'bearer', username: null, password: 't' })).toBe(
      'Bearer t',
    );
    expect(referenceAuthorization({ auth_type: null, username: 'u', password: 'p' })).toBeNull();
  });
});
