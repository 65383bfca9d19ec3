import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import type { DefaultNotification } from './default-notifications';

/** A notification's template, as previews and test mails render it. */
export interface NotificationTemplateRow {
  workspace_id: string;
  event: string;
  subject: string | null;
  body: string | null;
  tracking_page_id: string | null;
}

/** What the delivery of a notification reads of it. */
export interface DeliverableNotificationRow extends NotificationTemplateRow {
  enabled: boolean;
  condition: string | null;
  cc: string[];
  bcc: string[];
}

/** The email_notification table's SQL. */
@Injectable()
export class EmailNotificationStore {
  constructor(private readonly db: DataSource) {}

  async template(id: string): Promise<NotificationTemplateRow | undefined> {
    return queryOne<NotificationTemplateRow>(
      this.db,
      `SELECT workspace_id, event, subject, body, tracking_page_id FROM email_notification WHERE id = $1`,
      [id],
    );
  }

  async deliverable(id: string): Promise<DeliverableNotificationRow | undefined> {
    return queryOne<DeliverableNotificationRow>(
      this.db,
      `SELECT event, enabled, condition, subject, body, cc, bcc, tracking_page_id, workspace_id
         FROM email_notification WHERE id = $1`,
      [id],
    );
  }

  async workspaceOf(runner: SqlRunner, id: string): Promise<string | undefined> {
    const row = await queryOne<{ workspace_id: string }>(
      runner,
      `SELECT workspace_id FROM email_notification WHERE id = $1`,
      [id],
    );
    return row?.workspace_id;
  }

  async markSent(id: string): Promise<void> {
    await execute(
      this.db,
      `UPDATE email_notification SET last_email_sent_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** Deletes the workspace's default (system) notifications; the rows deleted. */
  async deleteDefaults(
    runner: SqlRunner,
    workspaceId: string,
  ): Promise<Array<{ id: string; workspace_id: string }>> {
    return query<{ id: string; workspace_id: string }>(
      runner,
      `DELETE FROM email_notification WHERE workspace_id = $1 AND system RETURNING id, workspace_id`,
      [workspaceId],
    );
  }

  /**
   * Writes one default notification of the workspace; its id. Creation times are the clock's
   * (clock_timestamp()), so defaults written in one transaction keep their listed order.
   */
  async insertDefault(
    runner: SqlRunner,
    workspaceId: string,
    d: DefaultNotification,
  ): Promise<string> {
    const [row] = await query<{ id: string }>(
      runner,
      `INSERT INTO email_notification
         (workspace_id, event, system, enabled, title, subject, body, created_at, updated_at)
       VALUES ($1, $2, true, true, $3, $4, $5, clock_timestamp(), clock_timestamp())
       RETURNING id`,
      [workspaceId, d.event, d.title, d.subject, d.body],
    );
    return row.id;
  }
}
