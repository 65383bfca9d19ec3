import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ResourceController } from '../hydra/controller/resource-controller';
import { BadRequestError, NotFoundError } from '../hydra/errors/api-errors';
import { identifierFrom } from '../hydra/filters';
import { Notification } from './notification.entity';
import { NotificationsService } from './notifications.service';

export class NotificationsResourceController extends ResourceController(
  Notification,
  NotificationsService,
) {}

/**
 * POST /notifications/mark_as_read `{"ids": [...]}` (ids or IRIs; without ids: all of the
 * caller's) answers 200 `{"markedAsRead": n}`; an id that is not one of the caller's
 * notifications is 404 and nothing changes. POST /notifications/mark_all_as_read (the
 * reference's name, body `{"userId"}` optional and only the caller's own) marks all, 201.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class NotificationActionsController {
  constructor(
    private readonly api: HydraApi,
    private readonly notifications: NotificationsService,
  ) {}

  @Post('/notifications/mark_as_read')
  @HttpCode(200)
  async markAsRead(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    let ids: string[] | undefined;
    if (body.ids !== undefined && body.ids !== null) {
      if (!Array.isArray(body.ids) || body.ids.some((v) => typeof v !== 'string')) {
        throw new BadRequestError('The type of the "ids" attribute must be "array" of strings.');
      }
      ids = [];
      for (const raw of body.ids as string[]) {
        const id = identifierFrom(raw);
        if (!id) throw new NotFoundError();
        ids.push(id);
      }
    }
    const result = await this.notifications.markAsRead(principal.userId, ids);
    if (result.missing.length > 0) throw new NotFoundError();
    this.api.responder.json(req, res, { markedAsRead: result.updated });
  }

  @Post('/notifications/mark_all_as_read')
  @HttpCode(201)
  async markAllAsRead(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    if (body.userId !== undefined && body.userId !== null) {
      if (typeof body.userId !== 'string') {
        throw new BadRequestError('The type of the "userId" attribute must be "string".');
      }
      if (identifierFrom(body.userId) !== principal.userId) throw new NotFoundError();
    }
    const result = await this.notifications.markAsRead(principal.userId, undefined);
    this.api.responder.json(
      req,
      res,
      { userId: principal.userId, markedAsRead: result.updated },
      201,
    );
  }
}
