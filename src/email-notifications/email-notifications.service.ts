import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { Violation, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOfRecord } from '../notes/record-notes';
import { TrackingPageStore } from '../tracking-pages/tracking-page-store';
import { TEMPLATE_VARIABLES, unknownVariables } from './email-template';
import { EmailNotification } from './email-notification.entity';
import { EmailNotificationStore } from './email-notification-store';
import { parseCondition } from './notification-condition';

const MAX_COPIES = 20;

/**
 * E-mail notification rules: cc and bcc are lists of valid addresses (at most 20 each), the
 * condition must be readable, templates may only use the template variables, and the tracking
 * page must be one of the notification's workspace. PUT replaces (`replaceOnPut`): attributes
 * the body left out already hold their POST defaults when these hooks run.
 */
@Injectable()
export class EmailNotificationsService implements ResourceHooks<EmailNotification> {
  constructor(
    private readonly store: EmailNotificationStore,
    private readonly pages: TrackingPageStore,
  ) {}

  prepare(notification: EmailNotification, ctx: WriteContext): void {
    if (ctx.operation === 'post') {
      notification.enabled ??= true;
      notification.cc ??= [];
      notification.bcc ??= [];
      notification.system = false;
    }
    for (const key of ['cc', 'bcc'] as const) {
      if (Array.isArray(notification[key])) {
        notification[key] = [...new Set(notification[key].map((e) => e.trim()).filter(Boolean))];
      }
    }
    for (const key of ['condition', 'scheduleDelay', 'title', 'subject', 'body'] as const) {
      const v = notification[key];
      if (typeof v === 'string' && v.trim() === '') notification[key] = null;
    }
  }

  /** DELETE: the notes on the notification go with it (removeNotesOf). */
  async beforeRemove(notification: EmailNotification, ctx: WriteContext): Promise<void> {
    await removeNotesOfRecord(ctx, notification.id);
  }

  async validate(notification: EmailNotification, ctx: WriteContext): Promise<Violation[]> {
    const out: Violation[] = [];
    for (const key of ['cc', 'bcc'] as const) {
      const list = notification[key] ?? [];
      if (list.length > MAX_COPIES) {
        out.push(invalid(key, `This collection should contain ${MAX_COPIES} elements or less.`));
      }
      list.forEach((email, i) => {
        if (!isEmail(email)) {
          out.push({
            propertyPath: `${key}[${i}]`,
            message: 'This value is not a valid email address.',
            code: ViolationCodes.email,
          });
        }
      });
    }
    const condition = parseCondition(notification.condition);
    if (typeof condition === 'string') out.push(invalid('condition', condition));
    for (const key of ['subject', 'body'] as const) {
      const unknown = unknownVariables(notification[key]);
      if (unknown.length) {
        out.push(
          invalid(
            key,
            `Unknown template variable(s): ${unknown.join(', ')}. Available: ${TEMPLATE_VARIABLES.join(', ')}.`,
          ),
        );
      }
    }
    const pageId = notification.trackingPage?.id;
    if (pageId) {
      const workspaceId =
        notification.workspace?.id ?? (await this.store.workspaceOf(ctx.em, notification.id));
      if (!(await this.pages.inWorkspace(ctx.em, pageId, workspaceId ?? null))) {
        out.push(invalid('trackingPage', 'This tracking page does not belong to the workspace.'));
      }
    }
    return out;
  }
}

function invalid(propertyPath: string, message: string): Violation {
  return { propertyPath, message, code: ViolationCodes.invalid };
}
