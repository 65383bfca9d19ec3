import { Module } from '@nestjs/common';
import { EmailNotificationsModule } from '../email-notifications/email-notifications.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { TrackingModule } from '../tracking/tracking.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { EventDelivery } from './event-delivery';

/** Delivery of the outbox to webhook workflows, e-mail notifications and in-app notices. */
@Module({
  imports: [WebhooksModule, EmailNotificationsModule, NotificationsModule, TrackingModule],
  providers: [EventDelivery],
  exports: [EventDelivery],
})
export class EventsModule {}
