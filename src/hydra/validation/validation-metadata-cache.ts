import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Grouped = ReturnType<Storage['groupByPropertyName']>;
type ValidationMetadata = ReturnType<Lookup>[number];

const INSTALLED = Symbol('validation metadata cache');

/**
 * class-validator looks a class's constraints up again on every `validate`: it filters the
 * class's metadata by group and walks every decorated class for inherited ones (`instanceof`
 * against each), then groups the result by property. A write validates one entity and its
 * nested inputs, so an import's thousands of records spent several percent of their CPU
 * there (bench/README.md, issue 24). Decorators register metadata when a class is defined
 * and nothing removes any, so the answer for (class, schema, always, strictGroups, groups)
 * only changes when metadata is added: cached until then. The arrays handed out are frozen,
 * so a caller that would modify one fails loudly instead of corrupting the cache.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const marked = storage as Storage & { [INSTALLED]?: true };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;

  let lookups = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let groupings = new WeakMap<ValidationMetadata[], Grouped>();
  const clear = () => {
    lookups = new Map();
    groupings = new WeakMap();
  };

  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? '\u0002'}`;
    let byKey = lookups.get(target);
    if (!byKey) lookups.set(target, (byKey = new Map()));
    let found = byKey.get(key);
    if (!found) {
      found = Object.freeze(
        lookup(target, schema, always, strictGroups, groups),
      ) as ValidationMetadata[];
      byKey.set(key, found);
    }
    return found;
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadata) => {
    // Only the frozen arrays above are this cache's; any other is grouped as before.
    if (!Object.isFrozen(metadata)) return group(metadata);
    let grouped = groupings.get(metadata);
    if (!grouped) {
      grouped = group(metadata);
      for (const list of Object.values(grouped)) Object.freeze(list);
      groupings.set(metadata, Object.freeze(grouped));
    }
    return grouped;
  };

  for (const method of ['addValidationMetadata', 'addConstraintMetadata'] as const) {
    const add = storage[method].bind(storage) as (metadata: never) => void;
    (storage[method] as (metadata: never) => void) = (metadata) => {
      add(metadata);
      clear();
    };
  }
}
