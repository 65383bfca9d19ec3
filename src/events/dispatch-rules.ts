import { scheduleDelayMs } from '../email-notifications/email-notification.entity';
import { passesFilter, referenceChangeOf } from '../webhooks/reference-webhook-body';
import { firstDueAt } from '../workflows/workflow-types';

/** What the dispatch of an event knows of it. */
export interface DispatchedEvent {
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  ignored_workflow_id?: string | null;
}

/** A webhook workflow as the dispatch sees it (WorkflowStore.webhookTargets). */
export interface WebhookHook {
  id: string;
  period: string;
  url: string | null;
  entity: string | null;
  event: string | null;
  field: string | null;
}

/**
 * Whether a webhook workflow receives an event: not when the write that caused it asked not to
 * be echoed to that workflow (ignoreWebhookId); a reference-form workflow (`url`) gets the
 * changes of shipments, shipment items, orders and order items its filter lets through; one
 * with webhook credentials gets the shipment events in this service's signed form.
 */
export function wants(hook: WebhookHook, event: DispatchedEvent): boolean {
  if (event.ignored_workflow_id && hook.id === event.ignored_workflow_id) return false;
  if (hook.url === null) return event.type.startsWith('shipment.');
  const change = referenceChangeOf(event.type, event.payload);
  return change !== null && passesFilter(change, hook);
}

/**
 * When a webhook delivery is first due, and whether it is held: the workflow's period counts
 * from the event (next hour, next day), `immediately` is due at `now`, and `manual` is held
 * (due at `now` once POST /workflows/execute releases it).
 */
export function webhookDue(
  period: string,
  event: DispatchedEvent,
  now: Date,
): { held: boolean; dueAt: Date } {
  const due = firstDueAt(period, new Date(event.created_at));
  return { held: !due, dueAt: period === 'immediately' || !due ? now : due };
}

/** When an e-mail notification's delivery is due: its scheduleDelay after the event, or now. */
export function emailDue(scheduleDelay: string | null, event: DispatchedEvent, now: Date): Date {
  const delay = scheduleDelayMs(scheduleDelay);
  return delay ? new Date(new Date(event.created_at).getTime() + delay) : now;
}
