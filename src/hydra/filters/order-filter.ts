import { Filter, FilterApplyContext, SearchVariable } from '../core/filter';

/** `order[p]=asc|desc` (any case), applied in request order; unknown fields are ignored. */
export class OrderFilter implements Filter {
  private readonly allowed: Set<string>;

  constructor(private readonly properties: string[]) {
    this.allowed = new Set(properties);
  }

  describe(): SearchVariable[] {
    return this.properties.map((property) => ({
      variable: `order[${property}]`,
      property,
      required: false,
      schema: { type: 'string' as const, enum: ['asc', 'desc'] },
    }));
  }

  apply(ctx: FilterApplyContext): void {
    for (const [property, direction] of ctx.params.family('order')) {
      if (!this.allowed.has(property)) continue;
      const dir = direction.toLowerCase();
      if (dir !== 'asc' && dir !== 'desc') continue;
      const path = ctx.resolve(property);
      if (path) ctx.query.orderBy.push(`${path.sql} ${dir.toUpperCase()}`);
    }
  }
}
