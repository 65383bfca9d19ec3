import { changedFields } from '../shipments/shipment-changes';
/**
 * Records whose changes an enclosing write announces itself, per transaction (the write's
 * EntityManager): while a shipment's POST or PUT writes the items given in its body, its own
 * `shipment.created` / `.updated` tells what they changed, and while a merge runs, its own
 * `cause: "merge"` events do. Writes nested in them (a shipment item's rules, the target's
 * tracking number, a duplicate's deletion) skip the records listed here, so one change is
 * never announced twice.
 */
const announcedBy = new WeakMap<object, Set<string>>();

/** A record as `announced` lists it. */
export type AnnouncedRecord = { aggregate: 'shipment' | 'order'; id: string };

function key({ aggregate, id }: AnnouncedRecord): string {
  return `${aggregate}:${id}`;
}

/**
 * Runs `work` (on the transaction `em`) with the changes of `records` announced by the caller:
 * indirect updates and `shipment.updated` of those records are not recorded meanwhile.
 */
export async function announcedByCaller<T>(
  em: object,
  records: readonly AnnouncedRecord[],
  work: () => Promise<T>,
): Promise<T> {
  const listed = announcedBy.get(em) ?? new Set<string>();
  const added = records.map(key).filter((k) => !listed.has(k));
  for (const k of added) listed.add(k);
  announcedBy.set(em, listed);
  try {
    return await work();
  } finally {
    for (const k of added) listed.delete(k);
    if (listed.size === 0) announcedBy.delete(em);
  }
}

/** Whether an enclosing write on `em` announces the record's changes itself. */
export function announcedElsewhere(em: object, record: AnnouncedRecord): boolean {
  return announcedBy.get(em)?.has(key(record)) ?? false;
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
