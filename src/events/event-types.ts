import { TRACKING_STATUS_CODES } from '../tracking/statuses';

/** Names of the events written to the outbox; consumers match on them. */
export const EventTypes = {
  /** A shipment's trackingStatus changed (payload: ShipmentStatusChangedPayload). */
  shipmentStatusChanged: 'shipment.status_changed',
  /** A shipment was created: POST /shipments, or as an object in POST /shipment_items. */
  shipmentCreated: 'shipment.created',
  /** PUT /shipments/{id} changed a shipment (payload names the changed fields). */
  shipmentUpdated: 'shipment.updated',
  /** DELETE /shipments/{id} (payload: the shipment as it was). */
  shipmentDeleted: 'shipment.deleted',
} as const;

/** Records whose writes go to the outbox as `<aggregate>.created|updated|deleted`. */
export const RECORD_CHANGE_AGGREGATES = ['order', 'order_item', 'shipment_item'] as const;
export type RecordChangeEventType =
  `${(typeof RECORD_CHANGE_AGGREGATES)[number]}.${'created' | 'updated' | 'deleted'}`;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes] | RecordChangeEventType;

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
 * `shipment.delivered`. Both are derived from the outbox's `shipment.status_changed` rows.
 */
export const NOTIFICATION_EVENTS: readonly string[] = [
  EventTypes.shipmentCreated,
  EventTypes.shipmentUpdated,
  EventTypes.shipmentStatusChanged,
  ...TRACKING_STATUS_CODES.map((code) => `shipment.${code}`),
];

/** The notification event names one outbox event stands for. */
export function notificationEventsOf(type: string, payload: Record<string, unknown>): string[] {
  if (type !== EventTypes.shipmentStatusChanged) return [type];
  const status = payload.trackingStatus;
  return typeof status === 'string' && status ? [type, `shipment.${status}`] : [type];
}
