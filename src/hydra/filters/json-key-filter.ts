import { Filter, FilterApplyContext, SearchVariable } from '../core/filter';
import { isStorableText } from '../core/identifiers';

/**
 * Exact match on keys of a JSON object property: `customFields.color=red`
 * compares the text of key `color` (`p.key[]=a&p.key[]=b` for several).
 * Keys are free (user-defined fields), so the template names the family as
 * `customFields.{code}`; values and keys are always bound parameters.
 */
export class JsonKeyFilter implements Filter {
  constructor(private readonly property: string) {}

  describe(): SearchVariable[] {
    return [
      {
        variable: `${this.property}.{code}`,
        property: this.property,
        required: false,
        schema: { type: 'string' },
      },
    ];
  }

  apply(ctx: FilterApplyContext): void {
    const prefix = `${this.property}.`;
    const keys = new Set<string>();
    for (const [k] of ctx.params.pairs) {
      if (!k.startsWith(prefix)) continue;
      const key = k.slice(prefix.length).replace(/\[\]$/, '');
      if (/^[A-Za-z][A-Za-z0-9_]*$/.test(key)) keys.add(key);
    }
    if (keys.size === 0) return;
    const path = ctx.resolve(this.property);
    if (!path) return;
    for (const key of keys) {
      const given = ctx.params.getArray(prefix + key) ?? [];
      const one = ctx.params.get(prefix + key);
      if (one !== undefined) given.push(one);
      // A value with a NUL is no stored text: it matches nothing.
      const values = given.filter(isStorableText);
      if (values.length === 0) {
        ctx.query.andWhere('FALSE');
        continue;
      }
      const text = `(${path.sql} ->> ${ctx.query.param(key)})`;
      ctx.query.andWhere(
        values.length === 1
          ? `${text} = ${ctx.query.param(values[0])}`
          : `${text} = ANY(${ctx.query.param(values)}::text[])`,
      );
    }
  }
}
