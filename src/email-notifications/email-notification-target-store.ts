import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/** An e-mail notification an event is delivered to, with its delay (`90m`, `2h`, `1d`). */
export interface NotificationTarget {
  id: string;
  scheduleDelay: string | null;
}

/** Which e-mail notifications an outbox event goes to (the event delivery's dispatch). */
@Injectable()
export class EmailNotificationTargetStore {
  /** The enabled notifications of the workspace on one of `events` (notification event names). */
  async subscribed(
    runner: SqlRunner,
    workspaceId: string,
    events: readonly string[],
  ): Promise<NotificationTarget[]> {
    const rows = await query<{ id: string; schedule_delay: string | null }>(
      runner,
      `SELECT id, schedule_delay FROM email_notification
        WHERE workspace_id = $1 AND enabled AND event = ANY($2::text[])`,
      [workspaceId, events],
    );
    return rows.map((r) => ({ id: r.id, scheduleDelay: r.schedule_delay }));
  }
}
