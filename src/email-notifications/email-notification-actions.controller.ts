import { Controller } from '@nestjs/common';
import { fromInput, unlessInvisible } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { Workspace } from '../workspaces/workspace.entity';
import {
  NotificationPreviewInput,
  NotificationResetInput,
  NotificationSendTestInput,
} from './email-notification-actions.input';
import { EmailNotificationActions } from './email-notification-actions.service';
import {
  EmailNotificationPreview,
  EmailNotificationResetDefaults,
  EmailNotificationSendTest,
} from './email-notification-actions.output';
import { EmailNotification } from './email-notification.entity';

/**
 * The workspace of the template (a stored notification's, or a draft's), or the one being
 * reset. One the caller cannot see is the service's 422 "Item not found", as the reference
 * answers; a visible one is checked against the declared level.
 */
const templateWorkspace = unlessInvisible(async (ctx) =>
  typeof ctx.input.id === 'string' && ctx.input.id
    ? ctx.targets.ownersOf(EmailNotification, [ctx.input.id], 'workspace')
    : fromInput(Workspace, 'workspace')(ctx),
);
const resetWorkspace = unlessInvisible(fromInput(Workspace, 'id', 'workspace'));

/** Actions on e-mail notifications (bodies take ids or IRIs). */
@Controller()
export class EmailNotificationActionsController {
  constructor(private readonly actions: EmailNotificationActions) {}

  @Action({
    method: 'POST',
    path: '/email_notifications/preview',
    summary: 'Renders an e-mail notification or a draft.',
    description:
      'Renders the notification `id`, or a draft of `workspace`, with the values of `shipment` or sample ones. Answers `{subject, html, text}`.',
    input: NotificationPreviewInput,
    output: { json: EmailNotificationPreview },
    access: 'workspace:read',
    workspace: templateWorkspace,
  })
  async preview(input: NotificationPreviewInput, principal: Principal, context: ActionContext) {
    const mail = await this.actions.preview(principal, input);
    return typedJson(context, 'EmailNotificationPreview', mail);
  }

  @Action({
    method: 'POST',
    path: '/email_notifications/send_test',
    summary: 'Sends a rendered notification as a test e-mail.',
    description:
      'Renders like `preview` and sends it now to `email` (default: the caller), through the workspace’s SMTP credentials when it has some. Only to verified addresses of the caller or the team, within a budget per caller.',
    input: NotificationSendTestInput,
    output: { json: EmailNotificationSendTest },
    access: 'workspace:write',
    workspace: templateWorkspace,
  })
  async sendTest(input: NotificationSendTestInput, principal: Principal, context: ActionContext) {
    const sent = await this.actions.sendTest(principal, input);
    return typedJson(context, 'EmailNotificationSendTest', sent);
  }

  @Action({
    method: 'POST',
    path: '/email_notifications/reset_defaults',
    summary: 'Puts a workspace\u2019s system notifications back to the defaults.',
    description:
      'Replaces the system notifications of the workspace `id` (or `workspace`) with the defaults, one per main status event, and keeps the ones users made. Answers `{workspace, emailNotifications}`.',
    input: NotificationResetInput,
    output: { json: EmailNotificationResetDefaults },
    access: 'workspace:write',
    workspace: resetWorkspace,
  })
  async resetDefaults(input: NotificationResetInput, principal: Principal, context: ActionContext) {
    const reset = await this.actions.resetDefaults(principal, input);
    return typedJson(context, 'EmailNotificationResetDefaults', reset);
  }
}
