import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { identifierFrom } from '../hydra/core/identifiers';
import type { QueryParams } from '../hydra/core/query-params';
import { CUSTOM_FIELD_ENTITIES } from '../fields/custom-field-values';
import { FieldsLayoutsService } from '../fields/fields-layouts.service';
import { FieldsService } from '../fields/fields.service';
import { humanize } from '../fields/primary-fields';

export interface EntityType {
  id: string;
  entity: string;
  type: string | null;
  tags: string[];
  title: string;
  fieldsLayout: string[];
  placeholder: boolean;
  placeholderTemplate: string | null;
}

/**
 * Entity types, generated from the registered resources that carry custom fields. The field
 * layout is the workspace's default layout (code = entity) when one exists, else the built-in
 * fields in declaration order followed by the workspace's custom fields.
 */
@Injectable()
export class EntityTypesService {
  constructor(
    private readonly fields: FieldsService,
    private readonly layouts: FieldsLayoutsService,
  ) {}

  async all(principal: Principal, params: QueryParams): Promise<EntityType[]> {
    const raw = params.get('workspace');
    const id = raw ? identifierFrom(raw) : null;
    const workspaceId = id && principal.workspaceIds.includes(id) ? id : null;
    const out: EntityType[] = [];
    for (const entity of CUSTOM_FIELD_ENTITIES) {
      if (!this.fields.entityResource(entity)) continue;
      let layout = workspaceId ? await this.layouts.defaultLayout(workspaceId, entity) : null;
      if (!layout) {
        const custom = workspaceId
          ? await this.fields.custom(principal, params, (q) =>
              q.andWhere(`t.entity = ${q.param(entity)}`),
            )
          : [];
        layout = [
          ...this.fields.primary(entity).map((f) => f.code as string),
          ...custom.map((c) => c.record.code as string),
        ];
      }
      out.push({
        id: entity,
        entity,
        type: null,
        tags: [],
        title: humanize(entity),
        fieldsLayout: layout,
        placeholder: false,
        placeholderTemplate: null,
      });
    }
    return out;
  }
}
