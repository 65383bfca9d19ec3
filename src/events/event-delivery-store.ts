import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/** A delivery claimed for an attempt (its lease taken). */
export interface ClaimedDelivery {
  id: string;
  outbox_event_id: string;
  workspace_id: string;
  workflow_id: string | null;
  email_notification_id: string | null;
  /** A delivery target's name (delivery-targets.ts); null: a webhook or an e-mail. */
  target: string | null;
  attempts: number;
}

/**
 * One delivery of an event to one target (a webhook or other target's workflow, or an e-mail
 * notification), and when it is first due; `held` ones (a webhook of period manual) wait for
 * POST /workflows/execute.
 */
export interface NewDelivery {
  eventId: string;
  workspaceId: string;
  dueAt: Date;
  workflowId?: string;
  notificationId?: string;
  /** A delivery target's name (delivery-targets.ts); absent: a webhook or an e-mail. */
  target?: string;
  held?: boolean;
}

/**
 * The event_delivery table's SQL: one row per event and target (a webhook workflow, an e-mail
 * notification), claimed with a lease, and its outcome (event-delivery.ts).
 */
@Injectable()
export class EventDeliveryStore {
  /** Plans these deliveries, in one statement; one already planned is left as it is. */
  async add(runner: SqlRunner, deliveries: readonly NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await query(
      runner,
      `INSERT INTO event_delivery (outbox_event_id, workspace_id, workflow_id, email_notification_id,
                                   target, status, next_attempt_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[],
                            $7::timestamptz[])
       ON CONFLICT DO NOTHING`,
      [
        deliveries.map((d) => d.eventId),
        deliveries.map((d) => d.workspaceId),
        deliveries.map((d) => d.workflowId ?? null),
        deliveries.map((d) => d.notificationId ?? null),
        deliveries.map((d) => d.target ?? null),
        deliveries.map((d) => (d.held ? 'held' : 'pending')),
        deliveries.map((d) => d.dueAt),
      ],
    );
  }

  /**
   * Up to `limit` deliveries due at `now` (of `workflowIds` only, when given), locked skipping
   * rows other nodes hold, leased until `leaseUntil` (status `sending`, attempts + 1).
   */
  claimDue(
    runner: SqlRunner,
    now: Date,
    limit: number,
    leaseUntil: Date,
    workflowIds: readonly string[] | null,
  ): Promise<ClaimedDelivery[]> {
    return query<ClaimedDelivery>(
      runner,
      `WITH due AS (
         SELECT id FROM event_delivery
          WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1
            AND ($4::uuid[] IS NULL OR workflow_id = ANY($4::uuid[]))
          ORDER BY next_attempt_at, id
          LIMIT $2
          FOR UPDATE SKIP LOCKED)
       UPDATE event_delivery d SET status = 'sending', next_attempt_at = $3, attempts = d.attempts + 1
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.outbox_event_id, d.workspace_id, d.workflow_id, d.email_notification_id,
                 d.target, d.attempts`,
      [now, limit, leaseUntil, workflowIds],
    );
  }

  /**
   * The held and waiting deliveries of these workflows are due by `now`; those being sent
   * (leased) are left alone.
   */
  async releaseWorkflows(runner: SqlRunner, workflowIds: readonly string[], now: Date) {
    await query(
      runner,
      `UPDATE event_delivery SET status = 'pending', next_attempt_at = LEAST(next_attempt_at, $2)
        WHERE workflow_id = ANY($1::uuid[]) AND status IN ('pending', 'held')`,
      [workflowIds, now],
    );
  }

  /** Delivered (or `skipped`: nothing to send), with a note of what the server refused. */
  async delivered(
    runner: SqlRunner,
    id: string,
    status: 'delivered' | 'skipped',
    at: Date,
    note: string | null,
  ): Promise<void> {
    await query(
      runner,
      'UPDATE event_delivery SET status = $2, delivered_at = $3, last_error = $4 WHERE id = $1',
      [id, status, at, note],
    );
  }

  /** Failed: `failed` for good when given up, else pending again from `nextAttemptAt`. */
  async failed(
    runner: SqlRunner,
    id: string,
    givenUp: boolean,
    error: string | null,
    nextAttemptAt: Date,
  ): Promise<void> {
    await query(
      runner,
      'UPDATE event_delivery SET status = $2, last_error = $3, next_attempt_at = $4 WHERE id = $1',
      [id, givenUp ? 'failed' : 'pending', error, nextAttemptAt],
    );
  }

  /**
   * A workflow moved to another workspace: its pending and held deliveries of events of other
   * workspaces are dropped.
   */
  async dropOutside(runner: SqlRunner, workflowId: string, workspaceId: string): Promise<void> {
    await query(
      runner,
      `DELETE FROM event_delivery
        WHERE workflow_id = $1 AND workspace_id <> $2 AND status IN ('pending', 'held')`,
      [workflowId, workspaceId],
    );
  }
}
