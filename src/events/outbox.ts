import type { EventType } from './event-types';
import { query, type SqlRunner } from '../database/query';

export interface OutboxEvent {
  type: EventType;
  workspaceId: string | null;
  aggregateType: string;
  aggregateId: string;
  payload: Record<string, unknown>;
  /** Defaults to the database's transaction time. */
  occurredAt?: Date;
}

/** Transaction-local setting naming the workflow a write is not echoed to (ignoreWebhookId). */
export const IGNORED_WORKFLOW_SETTING = 'app.ignore_webhook_id';

/**
 * Writes events to the outbox with the caller's runner, so they commit or roll back with the
 * change they announce ("events never get lost"). Delivery (workflows, email, notifications)
 * reads `outbox_event` rows where `delivered_at IS NULL`. A write that asked not to be echoed
 * to one webhook workflow (`?ignoreWebhookId=`, see ignoreWebhookFor) marks its events.
 * Several events go in one statement (prepared on a write's transaction).
 */
export async function recordEvents(
  runner: SqlRunner,
  events: readonly OutboxEvent[],
): Promise<void> {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Marks the events the rest of this transaction records as not to be sent to the workflow
 * `workflowId` (the reference's `?ignoreWebhookId=`: a store plugin's own writes are not echoed
 * back to its webhook). Anything but a UUID is ignored, as the reference ignores unknown ids.
 */
export async function ignoreWebhookFor(runner: SqlRunner, workflowId: unknown): Promise<void> {
  if (typeof workflowId !== 'string' || !UUID.test(workflowId)) return;
  await runner.query(`SELECT set_config('${IGNORED_WORKFLOW_SETTING}', $1, true)`, [workflowId]);
}
