import type { Filter, FilterApplyContext, SearchVariable } from '../hydra/core/filter';
import { parseBoolean } from '../hydra/filters/filter';
import { isStorableText } from '../hydra/core/identifiers';

/**
 * `tag=<t>`: records whose `tags` array holds t (a parameter named unlike its property, as the
 * spec has it for credentials and workflows). Several tags (`tag[]`) are not offered.
 */
export class TagFilter implements Filter {
  constructor(
    private readonly variable = 'tag',
    private readonly property = 'tags',
  ) {}

  describe(): SearchVariable[] {
    return [
      {
        variable: this.variable,
        property: this.property,
        required: false,
        schema: { type: 'string' },
      },
    ];
  }

  apply(ctx: FilterApplyContext): void {
    const value = ctx.params.get(this.variable);
    if (value === undefined) return;
    const path = ctx.resolve(this.property);
    if (!path) return;
    // A tag with a NUL is no stored text: it matches nothing (and never reaches SQL).
    ctx.query.andWhere(
      isStorableText(value) ? `${path.sql} @> ARRAY[${ctx.query.param(value)}]::text[]` : 'FALSE',
    );
  }
}

/**
 * A boolean parameter whose name differs from its property (`first_time_setup_required` ->
 * firstTimeSetupRequired; `onlyVisibleTypes` -> visible, where false means "no restriction").
 * true|1 and false|0; anything else is ignored.
 */
export class BooleanAliasFilter implements Filter {
  constructor(
    private readonly variable: string,
    private readonly property: string,
    private readonly options: { onlyWhenTrue?: boolean; type?: 'string' | 'boolean' } = {},
  ) {}

  describe(): SearchVariable[] {
    return [
      {
        variable: this.variable,
        property: this.property,
        required: false,
        schema: { type: this.options.type ?? 'boolean' },
      },
    ];
  }

  apply(ctx: FilterApplyContext): void {
    const value = parseBoolean(ctx.params.get(this.variable));
    if (value === undefined || (this.options.onlyWhenTrue && !value)) return;
    const path = ctx.resolve(this.property);
    if (path) ctx.query.andWhere(`${path.sql} = ${ctx.query.param(value)}::boolean`);
  }
}
