import type { SqlRunner } from '../database/query';
import { atTopLevel, transactionOf } from '../database/transaction-scope';
import { coalesceEvents } from './coalesce-events';
import type { OutboxEvent } from './outbox-store';

/** Events waiting for their transaction's end, by the transaction's query runner. */
const buffers = new WeakMap<object, OutboxEvent[]>();

/**
 * From now on the events recorded on this transaction wait in memory and go in one statement
 * when `takeDeferred` hands them to the outbox before the commit. A transaction's events share
 * their `created_at` (the transaction's time) and have random ids, so their delivery order is
 * the same either way. No transaction (a pool, a pg client): nothing to defer.
 */
export function deferEvents(runner: SqlRunner): void {
  const tx = transactionOf(runner);
  if (tx && !buffers.has(tx)) buffers.set(tx, []);
}

/**
 * Where an event recorded now waits: the transaction's buffer at its top level only. Inside a
 * savepoint an event goes at once, so a savepoint rolled back takes its events with it; those
 * buffered before it belong to the transaction itself.
 */
export function deferredBuffer(runner: SqlRunner): OutboxEvent[] | undefined {
  const tx = transactionOf(runner);
  if (!tx || !atTopLevel(tx)) return undefined;
  return buffers.get(tx);
}

/**
 * The events waiting on this transaction, taken out (the buffer ends): one per record and kind
 * of change (coalesceEvents), since a subscriber sees only what the transaction commits.
 */
export function takeDeferred(runner: SqlRunner): OutboxEvent[] {
  const tx = transactionOf(runner);
  if (!tx) return [];
  const events = buffers.get(tx) ?? [];
  buffers.delete(tx);
  return coalesceEvents(events);
}
