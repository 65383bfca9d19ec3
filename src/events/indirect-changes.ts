import { RunnerValue } from '../database/runner-value';
import { changedFields } from '../shipments/shipment-changes';

/** A record as `announcedByCaller` lists it. */
export type AnnouncedRecord = { aggregate: 'shipment' | 'order'; id: string };

/** The records an enclosing write announces itself, carried by its runner (announcedByCaller). */
const ANNOUNCED = new RunnerValue<ReadonlySet<string>>('announced records');

function key({ aggregate, id }: AnnouncedRecord): string {
  return `${aggregate}:${id}`;
}

/**
 * Records whose changes an enclosing write announces itself: while a shipment's POST or PUT
 * writes the items given in its body, its own `shipment.created` / `.updated` tells what they
 * changed, and while a merge runs, its own `cause: "merge"` events do. Writes nested in them
 * (a shipment item's rules, the target's tracking number, a duplicate's deletion) skip the
 * records listed here, so one change is never announced twice.
 *
 * `work` gets the runner its nested writes must use: the same transaction (`em`'s), carrying
 * the list, which their hooks find on their `ctx.em` (announcedElsewhere, watchRecords). The
 * list is the write's own state, passed down explicitly: nothing outside the work sees it,
 * and nothing is left to clean up when it ends. Enclosing lists carry over.
 */
export async function announcedByCaller<E extends object, T>(
  em: E,
  records: readonly AnnouncedRecord[],
  work: (announcing: E) => Promise<T>,
): Promise<T> {
  const outer = ANNOUNCED.of(em);
  const listed = new Set([...(outer ?? []), ...records.map(key)]);
  return work(ANNOUNCED.on(em, listed));
}

/** Whether an enclosing write announces the record's changes itself (announcedByCaller). */
export function announcedElsewhere(em: object, record: AnnouncedRecord): boolean {
  return ANNOUNCED.of(em)?.has(key(record)) ?? false;
}

/** A record as an event shows it: what `changedFields` compares. */
interface Represented {
  representation: Record<string, unknown>;
}

/** Reads the records of these ids as events show them (missing ones left out). */
type ReadRecords<S> = (ids: string[]) => Promise<Array<[string, S]>>;

/**
 * Before another record's write: the records of `ids` (unset ones and those an enclosing write
 * announces skipped), read in one statement, for `updatesSince`.
 */
export async function watchRecords<S extends Represented>(
  em: object,
  aggregate: AnnouncedRecord['aggregate'],
  ids: Iterable<string | null | undefined>,
  read: ReadRecords<S>,
): Promise<Map<string, S>> {
  const wanted = [...new Set(ids)].filter(
    (id): id is string => !!id && !announcedElsewhere(em, { aggregate, id }),
  );
  return wanted.length === 0 ? new Map() : new Map(await read(wanted));
}

/**
 * After that write: each watched record read again (one statement), with the names of the
 * properties whose values changed; records that did not change are left out.
 */
export async function updatesSince<S extends Represented>(
  before: ReadonlyMap<string, S>,
  read: ReadRecords<S>,
): Promise<Array<{ id: string; now: S; changed: string[] }>> {
  if (before.size === 0) return [];
  const updates = [];
  for (const [id, now] of await read([...before.keys()])) {
    const was = before.get(id);
    const changed = was ? changedFields(was.representation, now.representation) : [];
    if (changed.length > 0) updates.push({ id, now, changed });
  }
  return updates;
}
