import { Module } from '@nestjs/common';
import {
  NotificationActionsController,
  NotificationsResourceController,
} from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { NotificationStore } from './notification-store';

/** In-app notifications: GET/PUT /notifications, /users/{id}/notifications, mark_as_read. */
@Module({
  controllers: [NotificationActionsController, NotificationsResourceController],
  providers: [NotificationsService, NotificationStore],
  exports: [NotificationsService],
})
export class NotificationsModule {}
