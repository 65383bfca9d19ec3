import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { CollectionPage } from '../hydra/actions/action-result';
import { parsePagination } from '../hydra/query/pagination';
import { BadRequestError, ValidationError } from '../common/errors/api-errors';
import { parseBoolean } from '../hydra/filters/filter';
import { QueryParams } from '../hydra/core/query-params';
import { CUSTOM_FIELD_ENTITIES } from './custom-field-values';
import { Field } from './field.entity';
import { FieldsService } from './fields.service';

/**
 * Items are found by code within the caller's workspaces (the `workspace` and `entity` query
 * parameters pick one), so the workspace a write is about is known only to FieldsService,
 * which enforces `workspace:write` there like the resource pipeline does for CRUD.
 */
const BY_CODE =
  'The field is found by code among the caller\u2019s workspaces; `?workspace=` and `?entity=` pick one when several have the code (400 while it stays ambiguous, 404 when none).';

/**
 * `/fields`: custom fields by code, plus the built-in fields of an entity in the list
 * (`primary=true` only those, `primary=false` only custom ones, neither: built-in first).
 */
@Controller()
export class FieldsController {
  constructor(private readonly fields: FieldsService) {}

  @Action({
    method: 'GET',
    path: '/fields',
    summary: 'Lists the built-in and custom fields of an entity.',
    description:
      'The built-in fields of `?entity=` first, then the custom fields of the caller’s workspaces (filtered by `workspace`, `code` and others). `primary=true` lists built-in fields only, `primary=false` custom ones only.',
    output: { collection: Field },
    access: 'workspace:read',
  })
  async list(_input: unknown, principal: Principal, context: ActionContext) {
    const params = QueryParams.fromUrl(context.url);
    const entity = params.get('entity');
    if (!entity) throw new BadRequestError('The "entity" query parameter is required.');
    if (!this.fields.entityResource(entity))
      throw new BadRequestError(`Unknown entity "${entity}".`);
    const pagination = parsePagination(params, this.fields.resource.maxItemsPerPage);
    const primary = parseBoolean(params.get('primary'));
    const members = [
      ...(primary === false ? [] : this.fields.primary(entity)),
      ...(primary === true ||
      !(CUSTOM_FIELD_ENTITIES as readonly string[]).includes(entity.split('.')[0])
        ? []
        : (await this.fields.custom(principal, params)).map((m) => m.record)),
    ];
    return new CollectionPage({
      members: members.slice(pagination.offset, pagination.offset + pagination.itemsPerPage),
      totalItems: members.length,
      pagination,
    });
  }

  @Action({
    method: 'GET',
    path: '/fields/:code',
    summary: 'Reads a field by its code.',
    description: `${BY_CODE} Any member may read.`,
    output: { item: Field },
    access: 'workspace:read',
  })
  async get(_input: unknown, principal: Principal, context: ActionContext) {
    return (
      await this.fields.find(principal, context.params.code, QueryParams.fromUrl(context.url))
    ).record;
  }

  @Action({
    method: 'POST',
    path: '/fields',
    summary: 'Creates a custom field.',
    description:
      'Creates a custom field of `entity` in `workspace` (its code unique per workspace and entity, not a built-in field\u2019s). Needs write access to the workspace (read-only members: 403); 400 for wrong JSON types, 422 for invalid values or a workspace the caller does not see.',
    input: Field,
    output: { item: Field },
    status: 201,
    access: 'workspace:write',
  })
  async create(input: Record<string, unknown>, principal: Principal) {
    return this.fields.record(await this.fields.create(principal, input));
  }

  @Action({
    method: 'PUT',
    path: '/fields/:code',
    summary: 'Replaces a custom field.',
    description:
      'Replaces the custom field found by code among the caller’s workspaces (`?workspace=` and `?entity=` pick one when several have it); members left out go back to empty. Built-in fields cannot be changed.',
    input: Field,
    output: { item: Field },
    access: 'workspace:write',
  })
  async replace(input: Record<string, unknown>, principal: Principal, context: ActionContext) {
    const id = await this.customId(principal, context);
    await this.fields.replace(principal, id, input);
    return this.fields.record(id);
  }

  @Action({
    method: 'DELETE',
    path: '/fields/:code',
    summary: 'Deletes a custom field and its values.',
    description:
      'Removes the custom field found by code among the caller’s workspaces, and its values from the records of its entity. Built-in fields cannot be removed.',
    output: 'none',
    access: 'workspace:write',
  })
  async remove(_input: unknown, principal: Principal, context: ActionContext) {
    await this.fields.remove(principal, await this.customId(principal, context));
  }

  /** The stored field a write targets; built-in fields cannot be written (422). */
  private async customId(principal: Principal, context: ActionContext): Promise<string> {
    const match = await this.fields.find(
      principal,
      context.params.code,
      QueryParams.fromUrl(context.url),
    );
    if (match.primary)
      throw ValidationError.of('code', 'Built-in fields cannot be changed or removed.');
    return match.id;
  }
}
