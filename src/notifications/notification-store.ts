import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf, query, queryOne, type SqlRunner } from '../database/query';

/** A new in-app notification's columns. */
export interface NotificationRow {
  userId: string;
  tag: string;
  message: string;
  /** IRIs of the records concerned. */
  data: string[];
}

/**
 * The notification table's SQL. Without a runner it uses the pg pool itself: notifications are
 * written by background work (tracking checks, imports, reminders) that needs none of
 * TypeORM's wrapping.
 */
@Injectable()
export class NotificationStore {
  constructor(private readonly dataSource: DataSource) {}

  private get pool(): Pool {
    return poolOf(this.dataSource);
  }

  /** Inserts the notification (in the caller's transaction when a runner is given); its id. */
  async insert(row: NotificationRow, runner: SqlRunner = this.pool): Promise<string> {
    const inserted = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO notification (user_id, tag, message, data) VALUES ($1, $2, $3, $4::jsonb) RETURNING id`,
      [row.userId, row.tag, row.message, JSON.stringify(row.data)],
    );
    return inserted!.id;
  }

  /** Those of the ids that are notifications of the user. */
  async ofUser(userId: string, ids: readonly string[]): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.pool,
      `SELECT id FROM notification WHERE user_id = $1 AND id = ANY($2::uuid[])`,
      [userId, ids],
    );
    return rows.map((r) => r.id);
  }

  /** Marks the user's unread notifications (those ids, or all: null) read; how many changed. */
  async markRead(userId: string, ids: readonly string[] | null): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.pool,
      `WITH changed AS (
         UPDATE notification SET unread = false, read_at = now(), updated_at = now()
          WHERE user_id = $1 AND unread AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))
          RETURNING 1)
       SELECT count(*)::int AS n FROM changed`,
      [userId, ids],
    );
    return row?.n ?? 0;
  }
}
