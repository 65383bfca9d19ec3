import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../../database/query';
import type { StoreWebhookSubscription } from '../store-platform';

/** A store workflow's sync state (one row per workflow run by this service). */
export interface StoreSyncStateRow {
  workflow_id: string;
  platform: string;
  active: boolean;
  interval_seconds: number | null;
  next_run_at: Date | null;
  pull_requested_at: Date | null;
  /** The import cursor: every order changed up to this store time is imported. */
  changed_up_to: Date | null;
  /** When the first run's backfill finished; null before. */
  backfilled_at: Date | null;
  webhook_url: string | null;
  /** What the subscriptions were made for (receiver, store, secret), as a digest. */
  webhook_key: string | null;
  webhook_subscriptions: StoreWebhookSubscription[];
  lease_owner: string | null;
  lease_until: Date | null;
  run_id: string | null;
}

/** What a workflow write sets (StoreWorkflowExecutor.written). */
export interface StoreSyncSetting {
  workflowId: string;
  platform: string;
  /** Enabled, set up (firstTimeSetupPassed) and run here (credentials of its type). */
  active: boolean;
  /** Seconds between periodic pulls; null: on request only (period manual). */
  intervalSeconds: number | null;
}

/** A lease taken: the row as it is now, and the run of a node whose lease ran out, if any. */
export interface TakenLease {
  state: StoreSyncStateRow;
  abandonedRunId: string | null;
}

const COLUMNS = `workflow_id, platform, active, interval_seconds, next_run_at, pull_requested_at,
  changed_up_to, backfilled_at, webhook_url, webhook_key, webhook_subscriptions, lease_owner, lease_until, run_id`;

/**
 * The store_sync_state table's SQL. One run at a time per workflow on every node: a run holds
 * the row's lease (`lease_owner`, `lease_until`), taken only when free or run out, renewed as
 * the run progresses and given back at its end; every write of a run checks it still holds it.
 * Periodic pulls are claimed with SKIP LOCKED by whichever node looks first.
 */
@Injectable()
export class StoreSyncStateStore {
  /**
   * A workflow written: its row follows. Becoming active (set up, enabled, credentials of its
   * type) makes a pull due at once (the first run backfills); a changed period reschedules.
   */
  async set(runner: SqlRunner, setting: StoreSyncSetting): Promise<void> {
    await query(
      runner,
      `INSERT INTO store_sync_state (workflow_id, platform, active, interval_seconds, next_run_at,
                                     pull_requested_at)
       VALUES ($1, $2, $3, $4, CASE WHEN $3 THEN now() END, CASE WHEN $3 THEN now() END)
       ON CONFLICT (workflow_id) DO UPDATE SET
         platform = EXCLUDED.platform,
         pull_requested_at = CASE WHEN EXCLUDED.active AND NOT store_sync_state.active
                                  THEN now() ELSE store_sync_state.pull_requested_at END,
         active = EXCLUDED.active,
         interval_seconds = EXCLUDED.interval_seconds,
         next_run_at = CASE
           WHEN NOT EXCLUDED.active THEN NULL
           WHEN NOT store_sync_state.active THEN now()
           WHEN store_sync_state.interval_seconds IS NOT DISTINCT FROM EXCLUDED.interval_seconds
             THEN store_sync_state.next_run_at
           WHEN EXCLUDED.interval_seconds IS NULL THEN NULL
           ELSE now() + make_interval(secs => EXCLUDED.interval_seconds) END,
         updated_at = now()`,
      [setting.workflowId, setting.platform, setting.active, setting.intervalSeconds],
    );
  }

  find(runner: SqlRunner, workflowId: string): Promise<StoreSyncStateRow | undefined> {
    return queryOne<StoreSyncStateRow>(
      runner,
      `SELECT ${COLUMNS} FROM store_sync_state WHERE workflow_id = $1`,
      [workflowId],
    );
  }

  /**
   * Up to `limit` active workflows whose pull is due: a pull is requested and the next one
   * scheduled a period later (manual ones: none), in one statement, other nodes' locks
   * skipped. Answers their ids.
   */
  async claimDue(runner: SqlRunner, now: Date, limit: number): Promise<string[]> {
    const rows = await query<{ workflow_id: string }>(
      runner,
      `WITH due AS (
         SELECT workflow_id FROM store_sync_state
          WHERE active AND next_run_at <= $1
          ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE store_sync_state s
          SET pull_requested_at = COALESCE(s.pull_requested_at, $1),
              next_run_at = CASE WHEN s.interval_seconds IS NULL THEN NULL
                                 ELSE $1::timestamptz + make_interval(secs => s.interval_seconds) END
         FROM due WHERE s.workflow_id = due.workflow_id
       RETURNING s.workflow_id`,
      [now, limit],
    );
    return rows.map((r) => r.workflow_id);
  }

  /** POST /workflows/execute, or a run asked to slow down: a pull is requested. */
  async requestPull(
    runner: SqlRunner,
    workflowIds: readonly string[],
    at: Date,
  ): Promise<string[]> {
    const rows = await query<{ workflow_id: string }>(
      runner,
      `UPDATE store_sync_state SET pull_requested_at = COALESCE(pull_requested_at, $2)
        WHERE workflow_id = ANY($1::uuid[]) AND active RETURNING workflow_id`,
      [workflowIds, at],
    );
    return rows.map((r) => r.workflow_id);
  }

  /**
   * Takes the workflow's lease for `owner` until `until`, when it is free or ran out (its
   * run's node stopped: that run is answered as abandoned). Null while another run holds it,
   * or when the workflow is not active.
   */
  async takeLease(
    runner: SqlRunner,
    workflowId: string,
    owner: string,
    until: Date,
    now: Date,
  ): Promise<TakenLease | null> {
    const row = await queryOne<StoreSyncStateRow & { abandoned_run_id: string | null }>(
      runner,
      `WITH before AS (
         SELECT workflow_id, run_id FROM store_sync_state
          WHERE workflow_id = $1 AND active AND (lease_until IS NULL OR lease_until < $4)
          FOR UPDATE)
       UPDATE store_sync_state s SET lease_owner = $2, lease_until = $3, run_id = NULL
         FROM before WHERE s.workflow_id = before.workflow_id
       RETURNING ${COLUMNS.split(',')
         .map((c) => `s.${c.trim()}`)
         .join(', ')}, before.run_id AS abandoned_run_id`,
      [workflowId, owner, until, now],
    );
    if (!row) return null;
    const { abandoned_run_id: abandonedRunId, ...state } = row;
    return { state, abandonedRunId };
  }

  /** The run holding the lease (so a successor can close it if this node dies). */
  async holdRun(runner: SqlRunner, workflowId: string, owner: string, runId: string) {
    await query(
      runner,
      'UPDATE store_sync_state SET run_id = $3 WHERE workflow_id = $1 AND lease_owner = $2',
      [workflowId, owner, runId],
    );
  }

  /** Extends the lease; false when this run lost it (it then stops). */
  async renew(runner: SqlRunner, workflowId: string, owner: string, until: Date): Promise<boolean> {
    const rows = await query(
      runner,
      `UPDATE store_sync_state SET lease_until = $3
        WHERE workflow_id = $1 AND lease_owner = $2 RETURNING 1`,
      [workflowId, owner, until],
    );
    return rows.length > 0;
  }

  /** The pull request this run serves, cleared; null when none was requested. */
  async takePullRequest(
    runner: SqlRunner,
    workflowId: string,
    owner: string,
  ): Promise<Date | null> {
    const row = await queryOne<{ requested: Date | null }>(
      runner,
      `WITH before AS (SELECT pull_requested_at FROM store_sync_state WHERE workflow_id = $1 FOR UPDATE)
       UPDATE store_sync_state s SET pull_requested_at = NULL FROM before
        WHERE s.workflow_id = $1 AND s.lease_owner = $2
       RETURNING before.pull_requested_at AS requested`,
      [workflowId, owner],
    );
    return row?.requested ?? null;
  }

  /** The cursor after a page (it only moves forward); the first backfill's end. */
  async saveCursor(
    runner: SqlRunner,
    workflowId: string,
    owner: string,
    changedUpTo: Date | null,
    backfilled: boolean,
  ): Promise<void> {
    await query(
      runner,
      `UPDATE store_sync_state
          SET changed_up_to = GREATEST(changed_up_to, $3::timestamptz),
              backfilled_at = CASE WHEN $4 THEN COALESCE(backfilled_at, now()) ELSE backfilled_at END
        WHERE workflow_id = $1 AND lease_owner = $2`,
      [workflowId, owner, changedUpTo, backfilled],
    );
  }

  async saveSubscriptions(
    runner: SqlRunner,
    workflowId: string,
    subscribed: { url: string; key: string; subscriptions: readonly StoreWebhookSubscription[] },
  ): Promise<void> {
    await query(
      runner,
      `UPDATE store_sync_state SET webhook_url = $2, webhook_key = $3, webhook_subscriptions = $4::jsonb
        WHERE workflow_id = $1`,
      [workflowId, subscribed.url, subscribed.key, JSON.stringify(subscribed.subscriptions)],
    );
  }

  /** Tracking updates a store received (push target); a run reports them and starts over. */
  async addEventsSent(runner: SqlRunner, workflowId: string, n: number): Promise<void> {
    if (n <= 0) return;
    await query(
      runner,
      'UPDATE store_sync_state SET events_sent = events_sent + $2 WHERE workflow_id = $1',
      [workflowId, n],
    );
  }

  async takeEventsSent(runner: SqlRunner, workflowId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      runner,
      `WITH before AS (SELECT events_sent FROM store_sync_state WHERE workflow_id = $1 FOR UPDATE)
       UPDATE store_sync_state s SET events_sent = 0 FROM before WHERE s.workflow_id = $1
       RETURNING before.events_sent AS n`,
      [workflowId],
    );
    return row?.n ?? 0;
  }

  /**
   * Gives the lease back; answers whether work came in meanwhile (a pull requested, webhook
   * deliveries or orders to import again), for which the caller queues the next run. One
   * statement: a request that lands after it finds the lease free for its own job.
   */
  async release(runner: SqlRunner, workflowId: string, owner: string): Promise<boolean> {
    const row = await queryOne<{ pending: boolean }>(
      runner,
      `UPDATE store_sync_state SET lease_owner = NULL, lease_until = NULL, run_id = NULL
        WHERE workflow_id = $1 AND lease_owner = $2
       RETURNING active AND (pull_requested_at IS NOT NULL OR EXISTS (
         SELECT 1 FROM store_sync_inbox i WHERE i.workflow_id = $1 AND i.processed_at IS NULL))
         AS pending`,
      [workflowId, owner],
    );
    return row?.pending ?? false;
  }
}
