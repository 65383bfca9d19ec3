import { parseBoolean } from './filter';
import { Filter, FilterApplyContext, SearchVariable } from '../core/filter';

/** `empty[p]=true` selects null, empty string or empty array; `false` the opposite. */
export class EmptyFilter implements Filter {
  constructor(private readonly properties: string[]) {}

  describe(): SearchVariable[] {
    return this.properties.map((property) => ({
      variable: `empty[${property}]`,
      property,
      required: false,
      schema: { type: 'boolean' as const },
    }));
  }

  apply(ctx: FilterApplyContext): void {
    const requested = new Map(ctx.params.family('empty'));
    for (const property of this.properties) {
      const empty = parseBoolean(requested.get(property));
      if (empty === undefined) continue;
      const path = ctx.resolve(property);
      if (!path) continue;
      const isEmpty = path.isArray
        ? `COALESCE(cardinality(${path.sql}), 0) = 0`
        : path.isText
          ? `COALESCE(${path.sql}, '') = ''`
          : `${path.sql} IS NULL`;
      ctx.query.andWhere(empty ? isEmpty : `NOT (${isEmpty})`);
    }
  }
}
