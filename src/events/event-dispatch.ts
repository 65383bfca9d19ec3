import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EmailNotificationTargetStore } from '../email-notifications/email-notification-target-store';
import { WorkflowStore } from '../workflows/workflow-store';
import { EventDeliveryTargets } from './delivery-targets';
import { emailDue, wants, webhookDue } from './dispatch-rules';
import { EventDeliveryStore } from './event-delivery-store';
import { notificationEventsOf } from './event-types';
import { OutboxStore } from './outbox-store';

/**
 * Step 1 of delivery (event-delivery.ts): undispatched events are claimed with FOR UPDATE SKIP
 * LOCKED and, in the same transaction, get one `event_delivery` row per target (enabled webhook
 * workflows of the workspace that want it; enabled e-mail notifications whose event matches,
 * never for an indirect change, see notificationEventsOf; the workflows of the other delivery
 * targets, delivery-targets.ts) with the time it is due (dispatch-rules.ts). An event without
 * targets is delivered at once.
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
      for (const event of events) {
        let targets = 0;
        const workspaceId = event.workspace_id;
        if (workspaceId) {
          const hooks = (await this.workflows.webhookTargets(em, workspaceId)).filter((hook) =>
            wants(hook, event),
          );
          for (const hook of hooks) {
            const { held, dueAt } = webhookDue(hook.period, event, now);
            await this.deliveries.addWebhook(em, {
              eventId: event.id,
              workspaceId,
              workflowId: hook.id,
              held,
              dueAt,
            });
            targets++;
          }
          // None for an indirect change (`cause`): webhooks only.
          const names = notificationEventsOf(event.type, event.payload);
          const mails = names.length
            ? await this.notifications.subscribed(em, workspaceId, names)
            : [];
          for (const mail of mails) {
            await this.deliveries.addEmail(em, {
              eventId: event.id,
              workspaceId,
              notificationId: mail.id,
              dueAt: emailDue(mail.scheduleDelay, event, now),
            });
            targets++;
          }
          // Other targets (tracking sent back to stores): due at once, webhook-like retries.
          for (const target of this.targets.all()) {
            const workflowIds = await target.workflowsFor(em, {
              id: event.id,
              type: event.type,
              workspaceId,
              aggregateType: event.aggregate_type,
              aggregateId: event.aggregate_id,
              payload: event.payload,
              createdAt: new Date(event.created_at),
            });
            for (const workflowId of workflowIds) {
              await this.deliveries.addTargeted(em, {
                eventId: event.id,
                workspaceId,
                workflowId,
                target: target.name,
                dueAt: now,
              });
              targets++;
            }
          }
        }
        await this.outbox.dispatched(em, event.id, now, targets === 0);
      }
      return events.length;
    });
  }
}
