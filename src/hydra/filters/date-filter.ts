import { Filter, FilterApplyContext, SearchVariable } from '../core/filter';

const OPERATORS: Array<[string, string]> = [
  ['before', '<='],
  ['strictly_before', '<'],
  ['after', '>='],
  ['strictly_after', '>'],
];

/** `p[before]`, `p[strictly_before]`, `p[after]`, `p[strictly_after]`; null dates are excluded, unparseable values ignored. */
export class DateFilter implements Filter {
  constructor(private readonly properties: string[]) {}

  describe(): SearchVariable[] {
    return this.properties.flatMap((property) =>
      OPERATORS.map(([op]) => ({
        variable: `${property}[${op}]`,
        property,
        required: false,
        schema: { type: 'string' as const },
      })),
    );
  }

  apply(ctx: FilterApplyContext): void {
    for (const property of this.properties) {
      const values = ctx.params.getMap(property);
      if (values.size === 0) continue;
      for (const [op, sqlOp] of OPERATORS) {
        const raw = values.get(op);
        if (raw === undefined) continue;
        const date = parseDate(raw);
        if (!date) continue;
        const path = ctx.resolve(property);
        if (!path) break;
        ctx.query.andWhere(`${path.sql} ${sqlOp} ${ctx.query.param(date)}::timestamptz`);
      }
    }
  }
}

export function parseDate(raw: string): string | null {
  const value = raw.trim();
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const ms = Date.parse(value.length === 10 ? value + 'T00:00:00Z' : value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString();
}
