import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';
import { userSeesWorkspaceSql } from '../workspaces/workspace-member-store';
import { workspaceTeamIdSql } from '../workspaces/workspace-page-store';

/** Who may change a reminder: its user, and the admins of its team. */
export interface ReminderOwnerRow {
  user_id: string;
  team_id: string;
}

/** A reminder fallen due, claimed for delivery. */
export interface DueReminderRow {
  id: string;
  user_id: string;
  note_id: string;
  comment: string | null;
  /** The collection of the note's record. */
  entity: string;
  /** Whether the user still sees the note's workspace. */
  visible: boolean;
}

/** The note_reminder table's SQL. */
@Injectable()
export class NoteReminderStore {
  async owner(runner: SqlRunner, id: string): Promise<ReminderOwnerRow | undefined> {
    return queryOne<ReminderOwnerRow>(
      runner,
      `SELECT r.user_id, ${workspaceTeamIdSql('r.workspace_id')} AS team_id
         FROM note_reminder r WHERE r.id = $1`,
      [id],
    );
  }

  /**
   * Claims up to `limit` reminders due by `now` and marks them sent, skipping those another
   * node holds (FOR UPDATE SKIP LOCKED): each is delivered once, in the caller's transaction.
   */
  async claimDue(runner: SqlRunner, now: Date, limit: number): Promise<DueReminderRow[]> {
    return query<DueReminderRow>(
      runner,
      `WITH due AS (
           SELECT id FROM note_reminder WHERE sent_at IS NULL AND remind_at <= $1
            ORDER BY remind_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE note_reminder r SET sent_at = now() FROM due, note n
          WHERE r.id = due.id AND n.id = r.note_id
         RETURNING r.id, r.user_id, r.note_id, r.comment, n.entity,
                   ${userSeesWorkspaceSql('r.user_id', 'n.workspace_id')} AS visible`,
      [now, limit],
    );
  }
}
