import type { EventType } from './event-types';
import type { SqlRunner } from './sql-runner';

export type { SqlRunner } from './sql-runner';

export interface OutboxEvent {
  type: EventType;
  workspaceId: string | null;
  aggregateType: string;
  aggregateId: string;
  payload: Record<string, unknown>;
  /** Defaults to the database's transaction time. */
  occurredAt?: Date;
}

/**
 * Writes events to the outbox with the caller's runner, so they commit or roll back with the
 * change they announce ("events never get lost"). Delivery (workflows, email, notifications)
 * reads `outbox_event` rows where `delivered_at IS NULL`.
 */
export async function recordEvents(
  runner: SqlRunner,
  events: readonly OutboxEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await runner.query(
    `INSERT INTO outbox_event (workspace_id, type, aggregate_type, aggregate_id, payload, created_at)
     SELECT e.workspace_id, e.type, e.aggregate_type, e.aggregate_id, e.payload,
            COALESCE(e.occurred_at, now())
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
