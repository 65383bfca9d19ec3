import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { QueryParams } from '../hydra/core/query-params';
import { FieldsLayout } from './fields-layout.entity';
import { FieldsLayoutsService } from './fields-layouts.service';

const BY_CODE =
  'The layout is found by code among the caller\u2019s workspaces; `?workspace=` picks one when several have the code (400 while it stays ambiguous, 404 when none).';

/**
 * `/fields_layouts` by code. The spec lists GET and POST; PUT and DELETE are offered too, as
 * a layout that can never change would have to be recreated under a new code. Writes check
 * `workspace:write` in FieldsLayoutsService, where the layout's workspace is known.
 */
@Controller()
export class FieldsLayoutsController {
  constructor(private readonly layouts: FieldsLayoutsService) {}

  @Action({
    method: 'GET',
    path: '/fields_layouts',
    summary: 'Lists the field layouts of the caller\u2019s workspaces.',
    description: 'Filtered and paged like any collection. Any member may read.',
    output: { collection: FieldsLayout },
    access: 'workspace:read',
  })
  list() {
    return {};
  }

  @Action({
    method: 'GET',
    path: '/fields_layouts/:code',
    summary: 'Reads a field layout by its code.',
    description: `${BY_CODE} Any member may read.`,
    output: { item: FieldsLayout },
    access: 'workspace:read',
  })
  async get(_input: unknown, principal: Principal, context: ActionContext) {
    return (await this.find(principal, context)).record;
  }

  @Action({
    method: 'POST',
    path: '/fields_layouts',
    summary: 'Creates a field layout.',
    description:
      'An ordered list of field codes (built-in or custom, each once) of one entity; its code is unique per workspace. Needs write access to the workspace (read-only members: 403); 400 for wrong JSON types, 422 for invalid values.',
    input: FieldsLayout,
    output: { item: FieldsLayout },
    status: 201,
    access: 'workspace:write',
  })
  async create(input: Record<string, unknown>, principal: Principal) {
    return this.layouts.record(await this.layouts.create(principal, input));
  }

  @Action({
    method: 'PUT',
    path: '/fields_layouts/:code',
    summary: 'Replaces a field layout.',
    description:
      'Replaces the layout found by code among the caller’s workspaces (`?workspace=` picks one when several have it). No `fields` means an empty layout.',
    input: FieldsLayout,
    output: { item: FieldsLayout },
    access: 'workspace:write',
  })
  async replace(input: Record<string, unknown>, principal: Principal, context: ActionContext) {
    const { id } = await this.find(principal, context);
    await this.layouts.replace(principal, id, input);
    return this.layouts.record(id);
  }

  @Action({
    method: 'DELETE',
    path: '/fields_layouts/:code',
    summary: 'Deletes a field layout.',
    description: `${BY_CODE} Needs write access to the layout\u2019s workspace (read-only members: 403).`,
    output: 'none',
    access: 'workspace:write',
  })
  async remove(_input: unknown, principal: Principal, context: ActionContext) {
    await this.layouts.remove(principal, (await this.find(principal, context)).id);
  }

  private find(principal: Principal, context: ActionContext) {
    return this.layouts.find(principal, context.params.code, QueryParams.fromUrl(context.url));
  }
}
