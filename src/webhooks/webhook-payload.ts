import { formatDateTime } from '../hydra/serialization/record-reader';

export interface WebhookEvent {
  id: string;
  type: string;
  workspaceId: string;
  createdAt: Date;
  payload: Record<string, unknown>;
}

/**
 * The JSON body of a webhook: `{id, type, createdAt, workspace, data}`. `id` is the outbox
 * event's id, the same on every attempt, so receivers can drop duplicates (delivery is at least
 * once); `data` is the event's payload (for shipment.status_changed: shipment IRI,
 * trackingNumber, previousStatus, trackingStatus, lastStatusUpdate).
 */
export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: formatDateTime(event.createdAt),
    workspace: `/workspaces/${event.workspaceId}`,
    data: event.payload,
  });
}
