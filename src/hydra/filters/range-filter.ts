import { Filter, FilterApplyContext, SearchVariable } from '../core/filter';

const NUMBER = /^-?\d+(\.\d+)?$/;
const OPERATORS: Array<[string, string]> = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
];

/** `p[between]=a..b` inclusive, `p[gt|gte|lt|lte]=n`; non-numeric values are ignored. */
export class RangeFilter implements Filter {
  constructor(private readonly properties: string[]) {}

  describe(): SearchVariable[] {
    return this.properties.flatMap((property) =>
      ['between', 'gt', 'gte', 'lt', 'lte'].map((op) => ({
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
      const path = ctx.resolve(property);
      if (!path) continue;
      const { query } = ctx;
      const between = values.get('between');
      if (between !== undefined) {
        const bounds = between.split('..');
        if (bounds.length === 2 && NUMBER.test(bounds[0]) && NUMBER.test(bounds[1])) {
          query.andWhere(
            `${path.sql} BETWEEN ${query.param(bounds[0])}::numeric AND ${query.param(bounds[1])}::numeric`,
          );
        }
      }
      for (const [op, sqlOp] of OPERATORS) {
        const value = values.get(op);
        if (value !== undefined && NUMBER.test(value)) {
          query.andWhere(`${path.sql} ${sqlOp} ${query.param(value)}::numeric`);
        }
      }
    }
  }
}
