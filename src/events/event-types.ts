/** Names of the events written to the outbox; consumers match on them. */
export const EventTypes = {
  /** A shipment's trackingStatus changed (payload: ShipmentStatusChangedPayload). */
  shipmentStatusChanged: 'shipment.status_changed',
} as const;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];

export interface ShipmentStatusChangedPayload {
  /** IRI of the shipment. */
  shipment: string;
  trackingNumber: string | null;
  previousStatus: string | null;
  trackingStatus: string | null;
  /** ISO 8601. */
  lastStatusUpdate: string | null;
}
