import { NOTIFICATION_EVENTS, indirectCauseOf, notificationEventsOf } from './event-types';

describe('notification events', () => {
  it('lists creation, update, the status change, one event per tracking status and the prediction events', () => {
    expect(NOTIFICATION_EVENTS).toContain('shipment.created');
    expect(NOTIFICATION_EVENTS).toContain('shipment.updated');
    expect(NOTIFICATION_EVENTS).toContain('shipment.status_changed');
    expect(NOTIFICATION_EVENTS).toContain('shipment.delivered');
    expect(NOTIFICATION_EVENTS).toContain('shipment.return_to_sender');
    for (const name of [
      'shipment.delivery_prediction_changed',
      'shipment.exception',
      'shipment.stalled',
      'shipment.late',
      'shipment.waiting',
    ])
      expect(NOTIFICATION_EVENTS).toContain(name);
    expect(NOTIFICATION_EVENTS).toHaveLength(20);
    expect(new Set(NOTIFICATION_EVENTS).size).toBe(20);
  });

  it('a prediction or attention event notifies under its own name', () => {
    expect(
      notificationEventsOf('shipment.stalled', { shipment: '/shipments/1', attention: 'stalled' }),
    ).toEqual(['shipment.stalled']);
  });

  it('maps a status change to the generic and the status event', () => {
    expect(
      notificationEventsOf('shipment.status_changed', { trackingStatus: 'delivered' }),
    ).toEqual(['shipment.status_changed', 'shipment.delivered']);
    expect(notificationEventsOf('shipment.status_changed', { trackingStatus: null })).toEqual([
      'shipment.status_changed',
    ]);
  });

  it('matches no notification for an indirect change (payload `cause`)', () => {
    expect(notificationEventsOf('shipment.updated', { changedFields: ['email'] })).toEqual([
      'shipment.updated',
    ]);
    for (const cause of ['order', 'order_item', 'shipment_item', 'merge']) {
      expect(
        notificationEventsOf('shipment.updated', { cause, changedFields: ['orders'] }),
      ).toEqual([]);
    }
    expect(indirectCauseOf({ cause: 'merge' })).toBe('merge');
    expect(indirectCauseOf({})).toBeNull();
    expect(indirectCauseOf({ cause: 'something else' })).toBeNull();
  });
});
