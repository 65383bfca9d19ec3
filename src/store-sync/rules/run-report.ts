import type { ImportPlan } from './import-plan';
import type { ImportProblem } from './order-mapping';

/** What a store sync run did (the workflow run's `counts`). */
export interface RunCounts {
  ordersRead: number;
  ordersCreated: number;
  ordersUpdated: number;
  ordersUnchanged: number;
  ordersFailed: number;
  shipmentsCreated: number;
  shipmentsUpdated: number;
  shipmentsMoved: number;
  shipmentsRemoved: number;
  eventsSent: number;
  webhooksReceived: number;
}

export function emptyCounts(): RunCounts {
  return {
    ordersRead: 0,
    ordersCreated: 0,
    ordersUpdated: 0,
    ordersUnchanged: 0,
    ordersFailed: 0,
    shipmentsCreated: 0,
    shipmentsUpdated: 0,
    shipmentsMoved: 0,
    shipmentsRemoved: 0,
    eventsSent: 0,
    webhooksReceived: 0,
  };
}

/** What one order's import wrote (only what succeeded), for the run's counts. */
export interface OrderImportOutcome {
  readonly order: 'created' | 'updated' | 'unchanged' | 'failed';
  readonly shipmentsCreated: number;
  readonly shipmentsUpdated: number;
  readonly shipmentsMoved: number;
  readonly shipmentsRemoved: number;
  /** What could not be imported, by store record id (the order's, a line's, a parcel's). */
  readonly problems: readonly ImportProblem[];
}

/** The outcome of an import that wrote its whole plan. */
export function plannedOutcome(
  plan: ImportPlan,
  problems: readonly ImportProblem[],
  failedShipments: ReadonlySet<string>,
): OrderImportOutcome {
  const done = plan.shipments.filter(
    (s) => s.write && !failedShipments.has(s.record.externalSourceSyncId),
  );
  return {
    order: plan.unchanged ? 'unchanged' : plan.order.existing === null ? 'created' : 'updated',
    shipmentsCreated: done.filter((s) => s.existing === null).length,
    shipmentsMoved: done.filter((s) => s.existing !== null && s.moved).length,
    shipmentsUpdated: done.filter((s) => s.existing !== null && !s.moved).length,
    shipmentsRemoved: plan.removedShipments.length,
    problems,
  };
}

export function addOutcome(counts: RunCounts, outcome: OrderImportOutcome): void {
  counts.ordersRead++;
  if (outcome.order === 'created') counts.ordersCreated++;
  else if (outcome.order === 'updated') counts.ordersUpdated++;
  else if (outcome.order === 'unchanged') counts.ordersUnchanged++;
  else counts.ordersFailed++;
  counts.shipmentsCreated += outcome.shipmentsCreated;
  counts.shipmentsUpdated += outcome.shipmentsUpdated;
  counts.shipmentsMoved += outcome.shipmentsMoved;
  counts.shipmentsRemoved += outcome.shipmentsRemoved;
}

/** Error lines a run keeps (a store with thousands of broken orders lists the first ones). */
export const MAX_ERROR_LINES = 200;

/**
 * The run's `errors`: one line per store record, `[id] reason`, the first MAX_ERROR_LINES and
 * how many more; null when there were none.
 */
export function errorLines(
  problems: readonly ImportProblem[],
  failure: string | null,
): string | null {
  const lines = problems
    .slice(0, MAX_ERROR_LINES)
    .map((p) => `[${p.storeRecordId}] ${oneLine(p.message)}`);
  if (problems.length > MAX_ERROR_LINES)
    lines.push(`... and ${problems.length - MAX_ERROR_LINES} more`);
  if (failure) lines.unshift(oneLine(failure));
  return lines.length ? lines.join('\n') : null;
}

/** The run's `log`: what it read and wrote, in one line. */
export function runSummary(
  counts: RunCounts,
  what: { pulled: boolean; since: Date | null },
): string {
  const read = what.pulled
    ? `read ${counts.ordersRead} order(s) changed since ${what.since?.toISOString() ?? 'the start'}`
    : `read ${counts.ordersRead} order(s)`;
  return (
    `${read} (${counts.webhooksReceived} from webhooks): ${counts.ordersCreated} created, ` +
    `${counts.ordersUpdated} updated, ${counts.ordersUnchanged} unchanged, ${counts.ordersFailed} failed; ` +
    `shipments ${counts.shipmentsCreated} created, ${counts.shipmentsUpdated} updated, ` +
    `${counts.shipmentsMoved} moved, ${counts.shipmentsRemoved} removed; ` +
    `${counts.eventsSent} tracking update(s) sent since the previous run`
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}
