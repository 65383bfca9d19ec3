import { parseBoolean } from './filter';
import { Filter, FilterApplyContext, SearchVariable } from '../core/filter';

/** `p=true|false|1|0` on boolean properties; other values are ignored. */
export class BooleanFilter implements Filter {
  constructor(private readonly properties: string[]) {}

  describe(): SearchVariable[] {
    return this.properties.map((property) => ({
      variable: property,
      property,
      required: false,
      schema: { type: 'boolean' as const },
    }));
  }

  apply(ctx: FilterApplyContext): void {
    for (const property of this.properties) {
      const value = parseBoolean(ctx.params.get(property));
      if (value === undefined) continue;
      const path = ctx.resolve(property);
      if (path) ctx.query.andWhere(`${path.sql} = ${ctx.query.param(value)}::boolean`);
    }
  }
}
