import { INDIRECT_CAUSE } from './event-types';
import type { OutboxEvent } from './outbox-store';

/** The payload member of an update listing the properties it changed. */
const CHANGED_FIELDS = 'changedFields';

type Change = 'created' | 'updated' | 'deleted';

/** `<aggregate>.created|updated|deleted` of its own aggregate, or null for any other event. */
function changeOf(event: OutboxEvent): Change | null {
  const prefix = `${event.aggregateType}.`;
  if (!event.type.startsWith(prefix)) return null;
  const change = event.type.slice(prefix.length);
  return change === 'created' || change === 'updated' || change === 'deleted' ? change : null;
}

/** Which record an event is of. */
const recordOf = (event: OutboxEvent) => `${event.aggregateType}\u0000${event.aggregateId}`;

function changedOf(event: OutboxEvent): readonly string[] {
  const changed = event.payload[CHANGED_FIELDS];
  return Array.isArray(changed) ? (changed as string[]) : [];
}

/**
 * One event per record and kind of change for the events of one transaction, as a subscriber
 * can see them: only the committed state exists for anyone else, not the steps the transaction
 * took on the way (an imported order with three parcels announced itself five times, each with
 * the whole order; a batch removing several shipments of an order updated it once per
 * shipment).
 * - A record created in the transaction: its `.created` alone, with the payload of its last
 *   `.updated` (the record as it was committed, without `changedFields` and `cause`).
 * - Updates of a record that existed: one per `cause` (none: the record's own write), at the
 *   place of the first, with the last one's payload and every field any of them changed.
 * - A record deleted in the transaction keeps its events as they are. Other events
 *   (`shipment.status_changed`, predictions) are never merged.
 * The order of what is left is the order of first appearance.
 */
export function coalesceEvents(events: readonly OutboxEvent[]): OutboxEvent[] {
  if (events.length < 2) return [...events];
  const deleted = new Set<string>();
  for (const e of events) if (changeOf(e) === 'deleted') deleted.add(recordOf(e));
  const out: OutboxEvent[] = [];
  /** Where the kept event of a record's creation, or of its updates by cause, is in `out`. */
  const created = new Map<string, number>();
  const updated = new Map<string, { at: number; changed: string[] }>();
  for (const event of events) {
    const change = changeOf(event);
    const record = recordOf(event);
    if (change === null || change === 'deleted' || deleted.has(record)) {
      out.push(event);
      continue;
    }
    if (change === 'created') {
      created.set(record, out.length);
      out.push(event);
      continue;
    }
    const at = created.get(record);
    if (at !== undefined) {
      const { [CHANGED_FIELDS]: _changed, [INDIRECT_CAUSE]: _cause, ...state } = event.payload;
      out[at] = { ...out[at], payload: state };
      continue;
    }
    const group = `${record}\u0000${String(event.payload[INDIRECT_CAUSE] ?? '')}`;
    const kept = updated.get(group);
    if (!kept) {
      updated.set(group, { at: out.length, changed: [...changedOf(event)] });
      out.push(event);
      continue;
    }
    for (const field of changedOf(event))
      if (!kept.changed.includes(field)) kept.changed.push(field);
    out[kept.at] = { ...event, payload: { ...event.payload, [CHANGED_FIELDS]: kept.changed } };
  }
  return out;
}
