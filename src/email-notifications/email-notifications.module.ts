import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { ResourceController } from '../hydra/controller/resource-controller';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { EmailNotificationActionsController } from './email-notification-actions.controller';
import { EmailNotificationActions } from './email-notification-actions.service';
import { EmailNotificationDelivery } from './email-notification-delivery';
import { EmailNotification } from './email-notification.entity';
import { EmailNotificationTargetStore } from './email-notification-target-store';
import { EmailNotificationStore } from './email-notification-store';
import { EmailNotificationsService } from './email-notifications.service';
import { NotificationMailer } from './notification-mailer';
import { NotificationValues } from './notification-values';
import { TestRecipients } from './test-recipients';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';

export class EmailNotificationsController extends ResourceController(
  EmailNotification,
  EmailNotificationsService,
) {}

/** /email_notifications (+ workspace and team forms), preview, send_test, reset_defaults. */
@Module({
  imports: [
    TrackingPagesModule,
    CredentialsModule,
    RateLimitModule,
    // Owners of what notifications read: their notification stores.
    ShipmentsModule,
    WorkspacesModule,
    UsersModule,
  ],
  // The actions first: their paths must not be taken for `/email_notifications/:id`.
  controllers: [EmailNotificationActionsController, EmailNotificationsController],
  providers: [
    EmailNotificationStore,
    EmailNotificationActions,
    EmailNotificationsService,
    NotificationValues,
    EmailNotificationDelivery,
    NotificationMailer,
    TestRecipients,
    EmailNotificationTargetStore,
  ],
  exports: [EmailNotificationDelivery, EmailNotificationTargetStore],
})
export class EmailNotificationsModule {}
