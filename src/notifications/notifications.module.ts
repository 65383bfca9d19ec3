import { Module } from '@nestjs/common';
import {
  NotificationActionsController,
  NotificationsResourceController,
} from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { RETENTION_RULES } from '../retention/retention-rule';
import { NOTIFICATION_RETENTION } from './notification-retention-store';
import { NotificationStore } from './notification-store';

/** In-app notifications: GET/PUT /notifications, /users/{id}/notifications, mark_as_read. */
@Module({
  controllers: [NotificationActionsController, NotificationsResourceController],
  providers: [
    NotificationsService,
    { provide: RETENTION_RULES, useValue: NOTIFICATION_RETENTION },
    NotificationStore,
  ],
  exports: [NotificationsService],
})
export class NotificationsModule {}
