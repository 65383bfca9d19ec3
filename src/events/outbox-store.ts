import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';
import { retentionStatements } from '../retention/retention-rule';
import type { EventType } from './event-types';

export interface OutboxEvent {
  type: EventType;
  workspaceId: string | null;
  aggregateType: string;
  aggregateId: string;
  payload: Record<string, unknown>;
  /** Defaults to the database's transaction time. */
  occurredAt?: Date;
}

/** An outbox row as delivery reads it. */
export interface OutboxRow {
  id: string;
  workspace_id: string | null;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  created_at: Date;
  ignored_workflow_id?: string | null;
}

/** Transaction-local setting naming the workflow a write is not echoed to (ignoreWebhookId). */
export const IGNORED_WORKFLOW_SETTING = 'app.ignore_webhook_id';

/** The statuses an event delivery never leaves (see event-delivery.ts). */
/** The events of one type a workspace recorded in a period (OutboxStore.summarize). */
export interface EventSummary {
  workspaceId: string;
  type: string;
  count: number;
  /** Ids of the records concerned (a sample). */
  aggregateIds: string[];
}

export const FINAL_DELIVERY_STATUSES = ['delivered', 'skipped', 'failed'] as const;

/** Statuses of a delivery still to attempt. */
const OPEN_DELIVERY = `d.status IN ('pending', 'held', 'sending')`;

/**
 * The outbox_event table's SQL: recording events in the writer's transaction, and what
 * delivery reads and records of them (event-delivery.ts).
 */
@Injectable()
export class OutboxStore {
  /**
   * Writes events with the caller's runner, so they commit or roll back with the change they
   * announce; in one statement (prepared on a write's transaction). A write that asked not to
   * be echoed to one webhook workflow (ignoreWebhook) marks its events.
   */
  async record(runner: SqlRunner, events: readonly OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await query(
      runner,
      `INSERT INTO outbox_event (workspace_id, type, aggregate_type, aggregate_id, payload, created_at,
                                 ignored_workflow_id)
       SELECT e.workspace_id, e.type, e.aggregate_type, e.aggregate_id, e.payload,
              COALESCE(e.occurred_at, now()),
              NULLIF(current_setting('${IGNORED_WORKFLOW_SETTING}', true), '')::uuid
         FROM jsonb_to_recordset($1::jsonb) AS e(workspace_id uuid, type text, aggregate_type text,
              aggregate_id uuid, payload jsonb, occurred_at timestamptz)`,
      [
        JSON.stringify(
          events.map((e) => ({
            workspace_id: e.workspaceId,
            type: e.type,
            aggregate_type: e.aggregateType,
            aggregate_id: e.aggregateId,
            payload: e.payload,
            occurred_at: e.occurredAt?.toISOString() ?? null,
          })),
        ),
      ],
    );
  }

  /**
   * How many events of `types` each workspace recorded in [from, to), with the records they
   * concern (aggregate ids, newest first, at most `sample` per workspace and type): what a
   * digest tells. Reads through a partial index on `created_at` for the prediction events.
   */
  async summarize(
    runner: SqlRunner,
    types: readonly string[],
    from: Date,
    to: Date,
    sample: number,
  ): Promise<EventSummary[]> {
    const rows = await query<{ workspace_id: string; type: string; n: number; ids: string[] }>(
      runner,
      `SELECT workspace_id, type, count(*)::int AS n,
              (array_agg(DISTINCT aggregate_id::text))[1:$4] AS ids
         FROM outbox_event
        WHERE type = ANY($1::text[]) AND created_at >= $2 AND created_at < $3
        GROUP BY workspace_id, type
        ORDER BY workspace_id, type`,
      [types, from, to, sample],
    );
    return rows.map((r) => ({
      workspaceId: r.workspace_id,
      type: r.type,
      count: r.n,
      aggregateIds: r.ids,
    }));
  }

  /** The events the rest of the runner's transaction records are not for this workflow. */
  async ignoreWebhook(runner: SqlRunner, workflowId: string): Promise<void> {
    await query(runner, `SELECT set_config('${IGNORED_WORKFLOW_SETTING}', $1, true)`, [workflowId]);
  }

  /** Undispatched events, oldest first, locked for the transaction (others' locks skipped). */
  claimUndispatched(runner: SqlRunner, limit: number): Promise<OutboxRow[]> {
    return query<OutboxRow>(
      runner,
      `SELECT id, workspace_id, type, aggregate_type, aggregate_id, payload, created_at,
              ignored_workflow_id
         FROM outbox_event WHERE dispatched_at IS NULL
        ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  /** Dispatched at `now`, in one statement; an event without targets is delivered then too. */
  async dispatched(
    runner: SqlRunner,
    events: readonly { id: string; delivered: boolean }[],
    now: Date,
  ): Promise<void> {
    if (events.length === 0) return;
    await query(
      runner,
      `UPDATE outbox_event e SET dispatched_at = $3,
              delivered_at = CASE WHEN d.delivered THEN $3::timestamptz END
         FROM unnest($1::uuid[], $2::boolean[]) AS d(id, delivered)
        WHERE e.id = d.id`,
      [events.map((e) => e.id), events.map((e) => e.delivered), now],
    );
  }

  async find(runner: SqlRunner, id: string): Promise<OutboxRow | undefined> {
    const [row] = await query<OutboxRow>(
      runner,
      `SELECT id, workspace_id, type, aggregate_type, aggregate_id, payload, created_at
         FROM outbox_event WHERE id = $1`,
      [id],
    );
    return row;
  }

  /** These events, oldest first (missing ones left out). */
  findAll(runner: SqlRunner, ids: readonly string[]): Promise<OutboxRow[]> {
    return query<OutboxRow>(
      runner,
      `SELECT id, workspace_id, type, aggregate_type, aggregate_id, payload, created_at
         FROM outbox_event WHERE id = ANY($1::uuid[]) ORDER BY created_at, id`,
      [ids],
    );
  }

  /** One delivery of the event was attempted with success. */
  async attemptSucceeded(runner: SqlRunner, id: string): Promise<void> {
    await query(runner, 'UPDATE outbox_event SET attempts = attempts + 1 WHERE id = $1', [id]);
  }

  /**
   * One delivery of the event failed with `error`; unless it is given up, the event's next
   * attempt is `next`.
   */
  async attemptFailed(
    runner: SqlRunner,
    id: string,
    error: string | null,
    givenUp: boolean,
    next: Date,
  ): Promise<void> {
    await query(
      runner,
      `UPDATE outbox_event SET attempts = attempts + 1, last_error = $2,
              next_attempt_at = CASE WHEN $3 THEN next_attempt_at ELSE $4::timestamptz END
        WHERE id = $1`,
      [id, error, givenUp, next],
    );
  }

  /** Marks the event delivered once none of its deliveries is pending, held or sending. */
  async closeIfFinished(runner: SqlRunner, id: string, now: Date): Promise<void> {
    await query(
      runner,
      `UPDATE outbox_event e SET delivered_at = $2
        WHERE e.id = $1 AND e.delivered_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM event_delivery d WHERE d.outbox_event_id = e.id AND ${OPEN_DELIVERY})`,
      [id, now],
    );
  }

  /** closeIfFinished for every dispatched event; answers how many it closed. */
  async closeFinished(runner: SqlRunner, now: Date): Promise<number> {
    const rows = await query(
      runner,
      `UPDATE outbox_event e SET delivered_at = $1
        WHERE e.delivered_at IS NULL AND e.dispatched_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM event_delivery d WHERE d.outbox_event_id = e.id AND ${OPEN_DELIVERY})
       RETURNING e.id`,
      [now],
    );
    return rows.length;
  }
}

/**
 * An event goes RETENTION_DAYS_EVENTS after `delivered_at`, which is set once none of its
 * deliveries is pending, held or sending (failed-for-good ones included); the NOT EXISTS
 * re-checks that, so an event with a delivery still to attempt is never deleted. Its
 * event_delivery rows go with it.
 */
export const OUTBOX_RETENTION = retentionStatements({
  table: 'outbox_event',
  category: 'events',
  where: `x.delivered_at < $1 AND NOT EXISTS (
            SELECT 1 FROM event_delivery d
             WHERE d.outbox_event_id = x.id
               AND d.status NOT IN (${FINAL_DELIVERY_STATUSES.map((s) => `'${s}'`).join(', ')}))`,
  children: [{ table: 'event_delivery', column: 'outbox_event_id' }],
});
