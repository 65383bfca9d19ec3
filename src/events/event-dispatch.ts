import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EmailNotificationTargetStore } from '../email-notifications/email-notification-target-store';
import { WorkflowStore } from '../workflows/workflow-store';
import {
  EventDeliveryTargets,
  type EventDeliveryTarget,
  targetedEventOf,
} from './delivery-targets';
import { emailDue, wants, webhookDue } from './dispatch-rules';
import { EventDeliveryStore, type NewDelivery } from './event-delivery-store';
import { notificationEventsOf } from './event-types';
import { OutboxStore } from './outbox-store';

/**
 * Step 1 of delivery (event-delivery.ts): undispatched events are claimed with FOR UPDATE SKIP
 * LOCKED and, in the same transaction, get one `event_delivery` row per target (enabled webhook
 * workflows of the workspace that want it; enabled e-mail notifications whose event matches,
 * never for an indirect change, see notificationEventsOf; the workflows of the other delivery
 * targets, delivery-targets.ts) with the time it is due (dispatch-rules.ts). An event without
 * targets is delivered at once. A workspace's webhook workflows and e-mail notifications are
 * read once per claimed batch (they were read per event: three statements an event, most of
 * them for events with no target at all); the batch's deliveries are written, and the batch
 * marked dispatched, in one statement each.
 */
@Injectable()
export class EventDispatch {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxStore,
    private readonly deliveries: EventDeliveryStore,
    private readonly workflows: WorkflowStore,
    private readonly notifications: EmailNotificationTargetStore,
    private readonly targets: EventDeliveryTargets,
  ) {}

  /** Fans up to `limit` undispatched events out into deliveries; answers how many. */
  async dispatch(limit: number, now: Date): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const events = await this.outbox.claimUndispatched(em, limit);
      const webhooks = oncePerKey<Awaited<ReturnType<WorkflowStore['webhookTargets']>>>();
      const subscribed =
        oncePerKey<Awaited<ReturnType<EmailNotificationTargetStore['subscribed']>>>();
      // Each other target's workflows for the whole batch, one statement a target.
      const targeted = events.flatMap((e) => (e.workspace_id ? [targetedEventOf(e)] : []));
      const byTarget: { target: EventDeliveryTarget; of: Map<string, string[]> }[] = [];
      for (const target of this.targets.all()) {
        const lists = await target.workflowsFor(em, targeted);
        byTarget.push({ target, of: new Map(targeted.map((e, i) => [e.id, lists[i]])) });
      }
      const planned: NewDelivery[] = [];
      const dispatched: { id: string; delivered: boolean }[] = [];
      for (const event of events) {
        const plannedBefore = planned.length;
        const workspaceId = event.workspace_id;
        if (workspaceId) {
          const hooks = (
            await webhooks(workspaceId, () => this.workflows.webhookTargets(em, workspaceId))
          ).filter((hook) => wants(hook, event));
          for (const hook of hooks) {
            const { held, dueAt } = webhookDue(hook.period, event, now);
            planned.push({ eventId: event.id, workspaceId, workflowId: hook.id, held, dueAt });
          }
          // None for an indirect change (`cause`): webhooks only.
          const names = notificationEventsOf(event.type, event.payload);
          const mails = names.length
            ? await subscribed(`${workspaceId}\u0000${names.join('\u0000')}`, () =>
                this.notifications.subscribed(em, workspaceId, names),
              )
            : [];
          for (const mail of mails) {
            planned.push({
              eventId: event.id,
              workspaceId,
              notificationId: mail.id,
              dueAt: emailDue(mail.scheduleDelay, event, now),
            });
          }
          // Other targets (tracking sent back to stores): due at once, webhook-like retries.
          for (const { target, of } of byTarget) {
            for (const workflowId of of.get(event.id) ?? []) {
              planned.push({
                eventId: event.id,
                workspaceId,
                workflowId,
                target: target.name,
                dueAt: now,
              });
            }
          }
        }
        // No target planned: delivered at once.
        dispatched.push({ id: event.id, delivered: planned.length === plannedBefore });
      }
      await this.deliveries.add(em, planned);
      await this.outbox.dispatched(em, dispatched, now);
      return events.length;
    });
  }
}

/** A read made once per key for the length of one dispatch (its transaction), then reused. */
function oncePerKey<T>(): (key: string, load: () => Promise<T>) => Promise<T> {
  const loaded = new Map<string, Promise<T>>();
  return (key, load) => {
    let value = loaded.get(key);
    if (!value) loaded.set(key, (value = load()));
    return value;
  };
}
