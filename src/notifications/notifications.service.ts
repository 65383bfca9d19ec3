import { Injectable } from '@nestjs/common';
import { type SqlRunner } from '../database/query';
import { NotFoundError } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import type { Notification } from './notification.entity';
import { NotificationStore } from './notification-store';

export interface NewNotification {
  userId: string;
  tag: string;
  message: string;
  /** IRIs of the records concerned. */
  data?: string[];
}

/** Creates notifications for users and applies the read/unread rules of PUT. */
@Injectable()
export class NotificationsService implements ResourceHooks<Notification> {
  constructor(private readonly store: NotificationStore) {}

  /** PUT: `readAt` follows `unread`; `updatedAt` records the change. */
  prepare(notification: Notification, ctx: WriteContext): void {
    if (ctx.operation !== 'put') return;
    const now = new Date();
    if (!notification.unread) notification.readAt ??= now;
    else notification.readAt = null;
    notification.updatedAt = now;
  }

  /** Creates a notification, in the caller's transaction when a runner is given. */
  async notify(input: NewNotification, runner?: SqlRunner): Promise<string> {
    return this.store.insert({ ...input, data: input.data ?? [] }, runner);
  }

  /**
   * Marks the user's notifications as read: the given ids, or all when `ids` is undefined.
   * Returns how many changed; ids that are not the user's are reported as missing.
   */
  async markAsRead(
    userId: string,
    ids: string[] | undefined,
  ): Promise<{ updated: number; missing: string[] }> {
    if (ids !== undefined && ids.length === 0) return { updated: 0, missing: [] };
    if (ids !== undefined) {
      const mine = new Set(await this.store.ofUser(userId, ids));
      const missing = ids.filter((id) => !mine.has(id));
      if (missing.length > 0) return { updated: 0, missing };
    }
    return { updated: await this.store.markRead(userId, ids ?? null), missing: [] };
  }

  /**
   * `markAsRead` for ids or IRIs as a client sends them: one that is not a notification of
   * the user is 404 and nothing changes.
   */
  async markReferencesAsRead(userId: string, references: string[] | undefined): Promise<number> {
    const ids = references?.map((raw) => identifierFrom(raw));
    if (ids?.some((id) => !id)) throw new NotFoundError();
    const result = await this.markAsRead(userId, ids as string[] | undefined);
    if (result.missing.length > 0) throw new NotFoundError();
    return result.updated;
  }
}
