import {
  EventTypes,
  indirectCauseOf,
  PREDICTION_EVENTS,
  type IndirectCause,
} from '../events/event-types';

export type ReferenceEntity = 'shipments' | 'shipment_items' | 'orders' | 'order_items';
export type ReferenceEvent = 'create' | 'update' | 'delete';

/** One element of the reference's webhook body. */
export interface ReferenceChange {
  entity: ReferenceEntity;
  event: ReferenceEvent;
  /** The record as JSON-LD (`@id`, `@type` and its members). */
  data: Record<string, unknown>;
  /** The properties an update changed; empty for create and delete. */
  updatedFields: string[];
  /**
   * Only for an update another record's write made (the event's `cause`: `order`,
   * `shipment_item`, ...); an addition to the reference's body, left out otherwise.
   */
  cause?: IndirectCause;
}

/** What a reference-form workflow asked for (null: everything). */
export interface ReferenceFilter {
  entity: string | null;
  event: string | null;
  field: string | null;
}

const ENTITY_OF: Record<string, ReferenceEntity> = {
  shipment: 'shipments',
  shipment_item: 'shipment_items',
  order: 'orders',
  order_item: 'order_items',
};
const EVENT_OF: Record<string, ReferenceEvent> = {
  created: 'create',
  updated: 'update',
  deleted: 'delete',
};

/**
 * An outbox event as the reference's webhooks tell it, or null for events they do not carry.
 * `shipment.status_changed` is an update of `trackingStatus`; its data holds what the event
 * knows (the delivery replaces it with the shipment as it is then, see webhook-delivery.ts).
 */
export function referenceChangeOf(
  type: string,
  payload: Record<string, unknown>,
): ReferenceChange | null {
  if (type === EventTypes.shipmentStatusChanged) {
    const iri = String(payload.shipment ?? '');
    return {
      entity: 'shipments',
      event: 'update',
      data: {
        '@id': iri,
        '@type': 'Shipment',
        id: iri.split('/').pop(),
        trackingNumber: payload.trackingNumber ?? null,
        trackingStatus: payload.trackingStatus ?? null,
        lastStatusUpdate: payload.lastStatusUpdate ?? null,
      },
      updatedFields: ['trackingStatus'],
    };
  }
  if ((PREDICTION_EVENTS as readonly string[]).includes(type)) {
    // An update of the shipment's read-only prediction fields; the delivery sends it whole.
    const iri = String(payload.shipment ?? '');
    return {
      entity: 'shipments',
      event: 'update',
      data: { '@id': iri, '@type': 'Shipment', id: iri.split('/').pop() },
      updatedFields:
        type === EventTypes.shipmentDeliveryPredictionChanged
          ? ['deliveryPrediction', 'expectedDeliveryDate']
          : ['attention'],
    };
  }
  const [aggregate, action] = type.split('.');
  const entity = ENTITY_OF[aggregate];
  const event = EVENT_OF[action];
  if (!entity || !event) return null;
  const { shipment, changedFields, cause: _cause, ...members } = payload;
  const data =
    aggregate === 'shipment'
      ? { '@id': shipment, '@type': 'Shipment', ...members }
      : (members as Record<string, unknown>);
  const cause = indirectCauseOf(payload);
  return {
    entity,
    event,
    data,
    updatedFields: event === 'update' && Array.isArray(changedFields) ? changedFields : [],
    ...(cause ? { cause } : {}),
  };
}

/** Whether a workflow's entity / event / field filter lets the change through. */
export function passesFilter(change: ReferenceChange, filter: ReferenceFilter): boolean {
  if (filter.entity && filter.entity !== change.entity) return false;
  if (filter.event && filter.event !== change.event) return false;
  if (filter.field && change.event === 'update' && !change.updatedFields.includes(filter.field))
    return false;
  return true;
}

/** The reference's body: `{"data": [{entity, event, data, updatedFields}, ...]}`. */
export function referenceWebhookBody(changes: readonly ReferenceChange[]): string {
  return JSON.stringify({
    data: changes.map((c) => ({
      entity: c.entity,
      event: c.event,
      data: c.data,
      updatedFields: c.updatedFields,
      ...(c.cause ? { cause: c.cause } : {}),
    })),
  });
}

/** The Authorization header of a reference-form workflow, if it has one. */
export function referenceAuthorization(workflow: {
  auth_type: string | null;
  username: string | null;
  password: string | null;
}): string | null {
  if (workflow.auth_type === 'basic' && workflow.username !== null) {
    const pair = `${workflow.username}:${workflow.password ?? ''}`;
    return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  }
  if (workflow.auth_type === 'bearer' && workflow.password) return `Bearer ${workflow.password}`;
  return null;
}
