import {
  targetedEventOf,
  type EventDeliveryTargets,
  type TargetedEvent,
  type TargetOutcome,
} from './delivery-targets';
import type { ClaimedDelivery } from './event-delivery-store';
import type { OutboxRow } from './outbox-store';

/** Claimed deliveries of the other targets, one group per target and workflow. */
export function groupByTarget(claimed: readonly ClaimedDelivery[]): ClaimedDelivery[][] {
  const groups = new Map<string, ClaimedDelivery[]>();
  for (const d of claimed) {
    const key = `${d.target}\u0000${d.workflow_id}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups.values()];
}

/**
 * One group's attempt: its events (those still there) handed to the target oldest first; one
 * outcome per delivery, in the group's order. A target that throws fails them all for a retry;
 * a missing target or event fails them for good.
 */
export async function attemptTargetGroup(
  targets: EventDeliveryTargets,
  deliveries: readonly ClaimedDelivery[],
  rows: readonly OutboxRow[],
  now: Date,
): Promise<TargetOutcome[]> {
  const { target: name, workflow_id: workflowId } = deliveries[0];
  const target = targets.byName(name ?? '');
  const wanted = new Set(deliveries.map((d) => d.outbox_event_id));
  const events: TargetedEvent[] = rows
    .filter((e) => wanted.has(e.id))
    .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
    .map(targetedEventOf);
  let outcomes: TargetOutcome[];
  try {
    outcomes = target
      ? await target.deliver(workflowId!, events, now)
      : events.map(() => ({ ok: false, permanent: true, error: `no delivery target ${name}` }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcomes = events.map(() => ({ ok: false, permanent: false, error: message }));
  }
  const outcomeOf = new Map(events.map((e, i) => [e.id, outcomes[i]]));
  return deliveries.map(
    (d) =>
      outcomeOf.get(d.outbox_event_id) ?? {
        ok: false,
        permanent: true,
        error: 'the event no longer exists',
      },
  );
}
