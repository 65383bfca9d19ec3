import { parseBoolean } from './filter';
import { Filter, FilterApplyContext, SearchVariable } from '../core/filter';

/** `exists[p]=true|1` is IS NOT NULL, `false|0` IS NULL; for arrays: non-empty or empty. */
export class ExistsFilter implements Filter {
  constructor(private readonly properties: string[]) {}

  describe(): SearchVariable[] {
    return this.properties.map((property) => ({
      variable: `exists[${property}]`,
      property,
      required: false,
      schema: { type: 'boolean' as const },
    }));
  }

  apply(ctx: FilterApplyContext): void {
    const requested = new Map(ctx.params.family('exists'));
    for (const property of this.properties) {
      const exists = parseBoolean(requested.get(property));
      if (exists === undefined) continue;
      const path = ctx.resolve(property);
      if (!path) continue;
      if (path.isArray) {
        ctx.query.andWhere(
          exists
            ? `COALESCE(cardinality(${path.sql}), 0) > 0`
            : `COALESCE(cardinality(${path.sql}), 0) = 0`,
        );
      } else {
        ctx.query.andWhere(`${path.sql} IS ${exists ? 'NOT ' : ''}NULL`);
      }
    }
  }
}
