import { RunnerValue } from '../database/runner-value';

/** The orders whose aggregates wait for the end of a write, carried by its runner. */
const DEFERRED = new RunnerValue<Set<string>>('orders to refresh');

/**
 * Runs `work` with a runner (the same transaction) on which every refresh of order aggregates
 * only marks the orders (a dirty set); answers the set, for the caller to refresh once after.
 * A shipment's POST writing three items refreshes its orders once instead of after each item:
 * nothing in between reads the aggregates (`fulfillmentStatus`,
 * `shipmentsWithoutTrackingCount`), and the orders' events are the enclosing write's, read
 * after its refresh. Enclosing sets do not carry over: the caller refreshes its own.
 */
export async function deferringRefresh<E extends object>(
  em: E,
  work: (deferring: E) => Promise<void>,
): Promise<Set<string>> {
  const dirty = new Set<string>();
  // The same runner (its transaction, connection and repositories) with the set added.
  await work(DEFERRED.on(em, dirty));
  return dirty;
}

/** The set a refresh on this runner goes to instead (deferringRefresh), if any. */
export function deferredRefreshOf(em: object): Set<string> | undefined {
  return DEFERRED.of(em);
}

/**
 * The same runner with refreshes marked in `dirty`, for a caller that keeps the set across
 * several writes and refreshes once after all of them (OrderUpdatesAtEnd).
 */
export function withDeferredRefresh<E extends object>(em: E, dirty: Set<string>): E {
  return DEFERRED.on(em, dirty);
}
