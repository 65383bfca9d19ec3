import { coalesceEvents } from './coalesce-events';
import type { OutboxEvent } from './outbox-store';

const ORDER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

function ev(
  type: string,
  id: string,
  payload: Record<string, unknown>,
  aggregateType = type.split('.')[0],
): OutboxEvent {
  return { type, workspaceId: 'w', aggregateType, aggregateId: id, payload } as OutboxEvent;
}

describe('coalesceEvents', () => {
  it('gives a record created in the transaction one event: its created, as committed', () => {
    const events = coalesceEvents([
      ev('order.created', ORDER, { id: ORDER, items: [] }),
      ev('order.updated', ORDER, {
        id: ORDER,
        items: ['i1'],
        changedFields: ['items'],
        cause: 'order_item',
      }),
      ev('shipment.created', OTHER, { id: OTHER }),
      ev('order.updated', ORDER, {
        id: ORDER,
        items: ['i1'],
        shipments: ['s1'],
        changedFields: ['shipments'],
        cause: 'shipment',
      }),
    ]);
    expect(events).toEqual([
      ev('order.created', ORDER, { id: ORDER, items: ['i1'], shipments: ['s1'] }),
      ev('shipment.created', OTHER, { id: OTHER }),
    ]);
  });

  it('merges updates of one cause: the last state, every field changed, at the first place', () => {
    const events = coalesceEvents([
      ev('order.updated', ORDER, { n: 1, changedFields: ['shipments'], cause: 'shipment' }),
      ev('order.updated', OTHER, { n: 1, changedFields: ['shipments'], cause: 'shipment' }),
      ev('order.updated', ORDER, {
        n: 2,
        changedFields: ['shipments', 'fulfillmentStatus'],
        cause: 'shipment',
      }),
    ]);
    expect(events).toEqual([
      ev('order.updated', ORDER, {
        n: 2,
        changedFields: ['shipments', 'fulfillmentStatus'],
        cause: 'shipment',
      }),
      ev('order.updated', OTHER, { n: 1, changedFields: ['shipments'], cause: 'shipment' }),
    ]);
  });

  it('keeps a record own update apart from indirect ones (notifications tell them apart)', () => {
    const own = ev('shipment.updated', ORDER, { n: 1, changedFields: ['email'] });
    const indirect = ev('shipment.updated', ORDER, {
      n: 2,
      changedFields: ['orders'],
      cause: 'order',
    });
    expect(coalesceEvents([own, indirect])).toEqual([own, indirect]);
  });

  it('leaves a deleted record and other kinds of events as they are', () => {
    const events = [
      ev('shipment.created', ORDER, { n: 1 }),
      ev('shipment.status_changed', ORDER, { n: 2 }),
      ev('shipment.status_changed', ORDER, { n: 3 }),
      ev('shipment.updated', ORDER, { n: 4, changedFields: ['orders'], cause: 'order' }),
      ev('shipment.deleted', ORDER, { n: 5 }),
      ev('shipment.exception', OTHER, { n: 6 }),
      ev('shipment.exception', OTHER, { n: 7 }),
    ];
    expect(coalesceEvents(events)).toEqual(events);
  });

  it('does not merge events whose type names another aggregate', () => {
    const events = [
      ev('order.updated', ORDER, { n: 1, changedFields: ['a'] }, 'shipment'),
      ev('order.updated', ORDER, { n: 2, changedFields: ['b'] }, 'shipment'),
    ];
    expect(coalesceEvents(events)).toEqual(events);
  });
});
