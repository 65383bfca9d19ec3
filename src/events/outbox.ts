import type { SqlRunner } from '../database/query';
import { deferEvents, deferredBuffer, takeDeferred } from './deferred-events';
import { OutboxStore, type OutboxEvent } from './outbox-store';

export { IGNORED_WORKFLOW_SETTING, type OutboxEvent } from './outbox-store';

/** The store behind the functions below (it holds no state). */
const outbox = new OutboxStore();

/**
 * Writes events to the outbox with the caller's runner, so they commit or roll back with the
 * change they announce ("events never get lost"). Delivery (workflows, email, notifications)
 * reads `outbox_event` rows where `delivered_at IS NULL`. A write that asked not to be echoed
 * to one webhook workflow (`?ignoreWebhookId=`, see ignoreWebhookFor) marks its events.
 * Several events go in one statement (prepared on a write's transaction).
 */
export function recordEvents(runner: SqlRunner, events: readonly OutboxEvent[]): Promise<void> {
  const deferred = deferredBuffer(runner);
  if (!deferred) return outbox.record(runner, events);
  deferred.push(...events);
  return Promise.resolve();
}

/**
 * Runs `work` in the runner's transaction with its events deferred (deferred-events.ts), then
 * writes them in one statement, still inside the transaction: a write recording many events
 * (an import, a batch) saves a statement per event. If `work` fails, none are written.
 */
export async function withDeferredEvents<T>(runner: SqlRunner, work: () => Promise<T>): Promise<T> {
  deferEvents(runner);
  try {
    const result = await work();
    await outbox.record(runner, takeDeferred(runner));
    return result;
  } finally {
    takeDeferred(runner);
  }
}

/** Writes what the runner's transaction deferred (deferEvents), in one statement. */
export function flushDeferredEvents(runner: SqlRunner): Promise<void> {
  return outbox.record(runner, takeDeferred(runner));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Marks the events the rest of this transaction records as not to be sent to the workflow
 * `workflowId` (the reference's `?ignoreWebhookId=`: a store plugin's own writes are not echoed
 * back to its webhook). Anything but a UUID is ignored, as the reference ignores unknown ids.
 */
export async function ignoreWebhookFor(runner: SqlRunner, workflowId: unknown): Promise<void> {
  if (typeof workflowId !== 'string' || !UUID.test(workflowId)) return;
  await outbox.ignoreWebhook(runner, workflowId);
}
