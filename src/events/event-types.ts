import { TRACKING_STATUS_CODES } from '../tracking/statuses';

/** Names of the events written to the outbox; consumers match on them. */
export const EventTypes = {
  /** A shipment's trackingStatus changed (payload: ShipmentStatusChangedPayload). */
  shipmentStatusChanged: 'shipment.status_changed',
  /** A shipment was created: POST /shipments, or as an object in POST /shipment_items. */
  shipmentCreated: 'shipment.created',
  /**
   * PUT /shipments/{id} changed a shipment (payload names the changed fields), or another
   * record's write did (payload `cause`, see INDIRECT_CAUSE).
   */
  shipmentUpdated: 'shipment.updated',
  /** DELETE /shipments/{id} (payload: the shipment as it was). */
  shipmentDeleted: 'shipment.deleted',
  /**
   * A shipment's delivery window moved by a day or more from the one last announced (payload:
   * DeliveryPredictionChangedPayload); src/predictions.
   */
  shipmentDeliveryPredictionChanged: 'shipment.delivery_prediction_changed',
  /** A shipment started to need attention for this reason (payload: AttentionPayload). */
  shipmentException: 'shipment.exception',
  shipmentStalled: 'shipment.stalled',
  shipmentLate: 'shipment.late',
  shipmentWaiting: 'shipment.waiting',
} as const;

/** The events of delivery predictions and attention (src/predictions). */
export const PREDICTION_EVENTS = [
  EventTypes.shipmentDeliveryPredictionChanged,
  EventTypes.shipmentException,
  EventTypes.shipmentStalled,
  EventTypes.shipmentLate,
  EventTypes.shipmentWaiting,
] as const;

/** A delivery window as events carry it (ISO 8601). */
export interface DeliveryWindowPayload {
  earliest: string;
  likely: string;
  latest: string;
}

export interface DeliveryPredictionChangedPayload {
  /** IRI of the shipment. */
  shipment: string;
  trackingNumber: string | null;
  previous: DeliveryWindowPayload;
  current: DeliveryWindowPayload;
}

export interface AttentionPayload {
  shipment: string;
  trackingNumber: string | null;
  /** The reason that started (the event's name). */
  attention: string;
  /** Every reason that applies now, most urgent first. */
  attentionCodes: string[];
}

/** Records whose writes go to the outbox as `<aggregate>.created|updated|deleted`. */
export const RECORD_CHANGE_AGGREGATES = ['order', 'order_item', 'shipment_item'] as const;
export type RecordChangeEventType =
  `${(typeof RECORD_CHANGE_AGGREGATES)[number]}.${'created' | 'updated' | 'deleted'}`;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes] | RecordChangeEventType;

/**
 * The payload member that marks an update made by another record's write (an *indirect*
 * change): `shipment.updated` of shipments an order's write or deletion, an order item's
 * deletion, a shipment item or a merge changed, and `order.updated` of orders a shipment's
 * write, a shipment item or a merge changed. Its value names what was written; updates made
 * by the record's own PUT have none.
 */
export const INDIRECT_CAUSE = 'cause';

/** The values of `cause`: the kind of write that changed the record. */
export const INDIRECT_CAUSES = [
  'order',
  'order_item',
  'shipment',
  'shipment_item',
  'merge',
] as const;
export type IndirectCause = (typeof INDIRECT_CAUSES)[number];

/** The cause of an indirect change, or null for a record's own write. */
export function indirectCauseOf(payload: Record<string, unknown>): IndirectCause | null {
  const cause = payload[INDIRECT_CAUSE];
  return typeof cause === 'string' && (INDIRECT_CAUSES as readonly string[]).includes(cause)
    ? (cause as IndirectCause)
    : null;
}

export interface ShipmentStatusChangedPayload {
  /** IRI of the shipment. */
  shipment: string;
  trackingNumber: string | null;
  previousStatus: string | null;
  trackingStatus: string | null;
  /** ISO 8601. */
  lastStatusUpdate: string | null;
}

/**
 * The event names e-mail notifications subscribe to: `shipment.created`, `shipment.updated`,
 * `shipment.status_changed` (every change)
 * and `shipment.<status>` for each tracking status (the change into that status), e.g.
 * `shipment.delivered`. Both are derived from the outbox's `shipment.status_changed` rows. And
 * the events of predictions and attention (PREDICTION_EVENTS), as they are.
 */
export const NOTIFICATION_EVENTS: readonly string[] = [
  EventTypes.shipmentCreated,
  EventTypes.shipmentUpdated,
  EventTypes.shipmentStatusChanged,
  ...TRACKING_STATUS_CODES.map((code) => `shipment.${code}`),
  ...PREDICTION_EVENTS,
];

/**
 * The notification event names one outbox event stands for. None for an indirect change
 * (`cause`): an order's edit, a shipment item or a merge never e-mails the customer that their
 * shipment was updated; webhooks still receive it.
 */
export function notificationEventsOf(type: string, payload: Record<string, unknown>): string[] {
  if (indirectCauseOf(payload) !== null) return [];
  if (type !== EventTypes.shipmentStatusChanged) return [type];
  const status = payload.trackingStatus;
  return typeof status === 'string' && status ? [type, `shipment.${status}`] : [type];
}
