import type { Filter, FilterApplyContext, SearchVariable } from '../hydra/core/filter';
import { identifierFrom, isStorableText } from '../hydra/core/identifiers';

/**
 * The query parameters of `GET /fields` besides `workspace.id`: `entity` (required; `orders`
 * or `entity.type`), `workspace` (a workspace id), `primary` (true: built-in only, false:
 * custom only) and `groups[]`. Declared as a filter so they appear in hydra:search and
 * OpenAPI; `entity` and `workspace` also narrow the stored (custom) fields here, `primary` and
 * the required check are FieldsController's.
 */
export class FieldListParameters implements Filter {
  describe(): SearchVariable[] {
    return [
      { variable: 'entity', property: 'entity', required: true, schema: { type: 'string' } },
      { variable: 'workspace', property: 'workspace', required: false, schema: { type: 'string' } },
      { variable: 'primary', property: null, required: false, schema: { type: 'boolean' } },
      {
        variable: 'groups[]',
        property: null,
        required: false,
        schema: { type: 'array', items: { type: 'string' } },
      },
    ];
  }

  apply(ctx: FilterApplyContext): void {
    const entity = ctx.params.get('entity');
    if (entity !== undefined) {
      ctx.query.andWhere(
        isStorableText(entity) ? `t.entity = ${ctx.query.param(entity.split('.')[0])}` : 'FALSE',
      );
    }
    const workspace = ctx.params.get('workspace');
    if (workspace !== undefined && workspace !== '') {
      const id = identifierFrom(workspace);
      ctx.query.andWhere(id ? `t.workspace_id = ${ctx.query.param(id)}::uuid` : 'FALSE');
    }
  }
}
