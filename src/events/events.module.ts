import { Module } from '@nestjs/common';
import { EmailNotificationsModule } from '../email-notifications/email-notifications.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { TrackingModule } from '../tracking/tracking.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { WRITE_TRANSACTION_OPENED } from '../hydra/write/transaction-rules';
import { EventDelivery } from './event-delivery';
import { ignoredWebhookRule } from './ignored-webhook.rule';

/**
 * Delivery of the outbox to webhook workflows, e-mail notifications and in-app notices; the
 * writes' `?ignoreWebhookId=` rule.
 */
@Module({
  imports: [WebhooksModule, EmailNotificationsModule, NotificationsModule, TrackingModule],
  providers: [EventDelivery, { provide: WRITE_TRANSACTION_OPENED, useValue: ignoredWebhookRule }],
  exports: [EventDelivery],
})
export class EventsModule {}
