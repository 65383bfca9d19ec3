import { Module } from '@nestjs/common';
import { EmailNotificationsModule } from '../email-notifications/email-notifications.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { RETENTION_RULES } from '../retention/retention-rule';
import { TeamsModule } from '../teams/teams.module';
import { TrackingModule } from '../tracking/tracking.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { WorkflowStoresModule } from '../workflows/workflow-stores.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { DeliveryFailureNotice } from './delivery-failure-notice';
import { EventDeliveryTargets } from './delivery-targets';
import { EventDelivery } from './event-delivery';
import { EventDeliveryStore } from './event-delivery-store';
import { EventDispatch } from './event-dispatch';
import { OUTBOX_RETENTION, OutboxStore } from './outbox-store';
import { WRITE_TRANSACTION_OPENED } from '../hydra/write/transaction-rules';
import { outboxTransactionRule } from './deferred-events.rule';

/**
 * Delivery of the outbox to webhook workflows, e-mail notifications and in-app notices; the
 * writes' `?ignoreWebhookId=` rule.
 */
@Module({
  imports: [
    WebhooksModule,
    EmailNotificationsModule,
    NotificationsModule,
    TrackingModule,
    WorkflowStoresModule,
    WorkspacesModule,
    TeamsModule,
  ],
  providers: [
    EventDelivery,
    EventDispatch,
    DeliveryFailureNotice,
    OutboxStore,
    EventDeliveryStore,
    EventDeliveryTargets,
    { provide: RETENTION_RULES, useValue: OUTBOX_RETENTION },
    { provide: WRITE_TRANSACTION_OPENED, useValue: outboxTransactionRule },
  ],
  exports: [EventDelivery, OutboxStore, EventDeliveryStore],
})
export class EventsModule {}
