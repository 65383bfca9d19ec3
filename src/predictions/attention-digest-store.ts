import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/** Days a digest's claim is kept: far longer than a digest can be retried. */
const KEEP_DAYS = 2;

/** The hours already digested per workspace (table `attention_digest`). */
@Injectable()
export class AttentionDigestStore {
  /**
   * Claims the workspace's digest of the hour starting `periodStart` in the runner's
   * transaction: true for the first caller; another node's claim waits for this transaction
   * and then gets false, so the digest goes out once.
   */
  async claim(runner: SqlRunner, workspaceId: string, periodStart: Date): Promise<boolean> {
    const rows = await query(
      runner,
      `INSERT INTO attention_digest (workspace_id, period_start) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [workspaceId, periodStart],
    );
    return rows.length > 0;
  }

  /** Forgets claims older than KEEP_DAYS before `now`. */
  async prune(runner: SqlRunner, now: Date): Promise<void> {
    await query(
      runner,
      `DELETE FROM attention_digest WHERE period_start < $1::timestamptz - make_interval(days => $2)`,
      [now, KEEP_DAYS],
    );
  }
}
