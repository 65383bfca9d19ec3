import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../../database/query';
import { retentionStatements } from '../../retention/retention-rule';

/** What waits for a workflow's next run besides a pull. */
export type InboxKind =
  /** A store webhook about an order: the order is read and imported. */
  | 'order'
  /** An order whose import failed: read and imported again (a few times at most). */
  | 'retry'
  /** One of Shopify's privacy topics. */
  | 'privacy';

export interface InboxEntry {
  id: string;
  kind: InboxKind;
  store_order_id: string | null;
  topic: string | null;
  payload: Record<string, unknown> | null;
  attempts: number;
}

/** Imports of one order tried again at most this many times (then it waits for a change). */
export const MAX_RETRIES = 5;

/**
 * The store_sync_inbox table's SQL: webhook deliveries received (de-duplicated by the
 * platform's delivery key: a retried delivery is one row) and orders to import again, each
 * handled by the workflow's next run.
 */
@Injectable()
export class StoreSyncInboxStore {
  /**
   * Stores a delivery; false when one with the same key was received before. A key that names
   * content rather than one delivery (BigCommerce's `hash` is the same for every change of an
   * order: `reopen`) is a duplicate only while the first is still waiting; once handled, the
   * same key is news again (importing an unchanged order writes nothing).
   */
  async receive(
    runner: SqlRunner,
    entry: {
      workflowId: string;
      dedupKey: string;
      kind: InboxKind;
      storeOrderId: string | null;
      topic: string | null;
      payload: Record<string, unknown> | null;
      reopen: boolean;
    },
  ): Promise<boolean> {
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO store_sync_inbox (workflow_id, dedup_key, kind, store_order_id, topic, payload)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (workflow_id, dedup_key) DO UPDATE
         SET processed_at = NULL, received_at = now(), attempts = 0, last_error = NULL
         WHERE $7 AND store_sync_inbox.processed_at IS NOT NULL
       RETURNING id`,
      [
        entry.workflowId,
        entry.dedupKey.slice(0, 500),
        entry.kind,
        entry.storeOrderId,
        entry.topic,
        entry.payload === null ? null : JSON.stringify(entry.payload),
        entry.reopen,
      ],
    );
    return row !== undefined;
  }

  /** The oldest entries not handled yet. */
  pending(runner: SqlRunner, workflowId: string, limit: number): Promise<InboxEntry[]> {
    return query<InboxEntry>(
      runner,
      `SELECT id, kind, store_order_id, topic, payload, attempts FROM store_sync_inbox
        WHERE workflow_id = $1 AND processed_at IS NULL
        ORDER BY received_at, id LIMIT $2`,
      [workflowId, limit],
    );
  }

  /** Handled (with what went wrong, if anything: kept for the operator). */
  async done(
    runner: SqlRunner,
    ids: readonly string[],
    error: string | null = null,
  ): Promise<void> {
    if (ids.length === 0) return;
    await query(
      runner,
      `UPDATE store_sync_inbox SET processed_at = now(), attempts = attempts + 1, last_error = $2
        WHERE id = ANY($1::uuid[])`,
      [ids, error],
    );
  }

  /**
   * An order to import again at the next run (its import failed), unless it was tried
   * MAX_RETRIES times already; a later change in the store brings it back anyway.
   */
  async retryLater(
    runner: SqlRunner,
    workflowId: string,
    storeOrderId: string,
    error: string,
  ): Promise<void> {
    await query(
      runner,
      `INSERT INTO store_sync_inbox (workflow_id, dedup_key, kind, store_order_id, last_error)
       VALUES ($1, 'retry:' || $2, 'retry', $2, $3)
       ON CONFLICT (workflow_id, dedup_key) DO UPDATE SET
         processed_at = CASE WHEN store_sync_inbox.attempts < $4 THEN NULL
                             ELSE store_sync_inbox.processed_at END,
         last_error = EXCLUDED.last_error`,
      [workflowId, storeOrderId, error.slice(0, 2000), MAX_RETRIES],
    );
  }

  /** An order imported after all: no retry counted against it any more. */
  async imported(runner: SqlRunner, workflowId: string, storeOrderIds: readonly string[]) {
    if (storeOrderIds.length === 0) return;
    await query(
      runner,
      `DELETE FROM store_sync_inbox
        WHERE workflow_id = $1 AND kind = 'retry' AND store_order_id = ANY($2::text[])`,
      [workflowId, storeOrderIds],
    );
  }
}

/** Handled deliveries go RETENTION_DAYS_EVENTS after they were handled (pending ones stay). */
export const STORE_SYNC_INBOX_RETENTION = retentionStatements({
  table: 'store_sync_inbox',
  category: 'events',
  where: 'x.processed_at < $1',
});
