import type { QueryParams } from '../core/query-params';
import type { Filter, SearchVariable } from '../core/filter';

/**
 * Which properties a record shows: `whole` (items, writes, nested collection routes) or
 * `list` (the resource's own collection without its `itemOnly` properties).
 */
export type RecordView = 'whole' | 'list';

/**
 * The item group of a resource with `itemOnly` properties: `get<ShortName>`, the serialization
 * group its items are read with (`getCarrier`, as spec.md names it for /public/carriers).
 */
export function itemGroupOf(shortName: string): string {
  return `get${shortName}`;
}

/**
 * The view a collection request reads, as API Platform's group filter decides it: the
 * collection's own (lighter) shape, or the whole record when `groups[]` names the item group.
 * Other group names are ignored, as a whitelisting group filter drops them. Nested routes
 * (`/workspaces/{id}/orders`) show whole records, as the reference's do.
 */
export function collectionView(
  itemGroup: string | null,
  params: QueryParams,
  nested: boolean,
): RecordView {
  if (itemGroup === null || nested) return 'whole';
  return params.getArray('groups')?.includes(itemGroup) ? 'whole' : 'list';
}

/**
 * `groups[]`: declared on resources with `itemOnly` properties so that it appears in
 * hydra:search and OpenAPI; it narrows no rows (the data provider reads it for the view).
 */
export class SerializationGroupsParameter implements Filter {
  constructor(
    private readonly itemGroup: string,
    private readonly itemOnly: readonly string[],
    private readonly path: string,
  ) {}

  describe(): SearchVariable[] {
    return [
      {
        variable: 'groups[]',
        property: null,
        required: false,
        schema: { type: 'array', items: { type: 'string' } },
        description:
          `Serialization groups. \`${this.itemGroup}\` shows each member of ${this.path} ` +
          `whole, with ${this.itemOnly.map((p) => `\`${p}\``).join(', ')} (nested ` +
          `collection routes always do); other names are ignored.`,
      },
    ];
  }

  apply(): void {}
}
