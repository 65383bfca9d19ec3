import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { Action } from '../hydra/actions/action.decorator';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NotFoundError } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import { MarkAllAsReadInput, MarkAsReadInput } from './notification-actions.input';
import { Notification } from './notification.entity';
import { NotificationsService } from './notifications.service';
import { MarkedAllAsRead, MarkedAsRead } from './notifications.output';

export class NotificationsResourceController extends ResourceController(
  Notification,
  NotificationsService,
) {}

/** Marking the caller's own notifications as read. */
@Controller()
export class NotificationActionsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Action({
    method: 'POST',
    path: '/notifications/mark_as_read',
    summary: 'Marks the caller\u2019s notifications as read.',
    description:
      'The notifications `ids` (ids or IRIs), or all of the caller\u2019s when left out; answers `{markedAsRead}`. An id that is not one of the caller\u2019s notifications is 404 and nothing changes; 400 for a non-string id.',
    input: MarkAsReadInput,
    output: { json: MarkedAsRead },
    access: 'user',
    responses: { 404: { description: 'An id that is none of the caller’s notifications.' } },
  })
  async markAsRead(input: MarkAsReadInput, principal: Principal) {
    const ids = input.ids ?? undefined;
    return {
      markedAsRead: await this.notifications.markReferencesAsRead(principal.userId, ids),
    };
  }

  @Action({
    method: 'POST',
    path: '/notifications/mark_all_as_read',
    summary: 'Marks all of the caller\u2019s notifications as read.',
    description:
      'The reference\u2019s name; `userId` is optional and may only be the caller\u2019s own (404 otherwise). Answers 201 `{userId, markedAsRead}`.',
    input: MarkAllAsReadInput,
    output: { json: MarkedAllAsRead },
    status: 201,
    access: 'user',
    responses: { 404: { description: 'A `userId` other than the caller’s.' } },
  })
  async markAllAsRead(input: MarkAllAsReadInput, principal: Principal) {
    if (input.userId !== undefined && input.userId !== null) {
      if (identifierFrom(input.userId) !== principal.userId) throw new NotFoundError();
    }
    const markedAsRead = await this.notifications.markReferencesAsRead(principal.userId, undefined);
    return { userId: principal.userId, markedAsRead };
  }
}
