import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { query, queryOne, type SqlRunner } from '../database/query';
import type { CustomFieldDefinition, SelectOptions } from './custom-field-values';
import { Field } from './field.entity';

/** A definition deleted: where its values are to be dropped. */
export interface RemovedField {
  workspace_id: string;
  entity: string;
  code: string;
}

interface DefinitionRow {
  code: string;
  field_type: string;
  readonly: boolean | null;
  validation: string | null;
  select_options: SelectOptions | null;
  options: string[] | null;
  default_value: string | null;
}

/** The field table's SQL: custom field definitions of a workspace's entities. */
@Injectable()
export class FieldStore {
  /** The field, locked for the transaction, with its workspace (relations are not loaded). */
  async loadLocked(em: EntityManager, id: string): Promise<Field | null> {
    const field = await em.findOne(Field, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!field) return null;
    const row = await queryOne<{ workspace_id: string }>(
      em,
      'SELECT workspace_id FROM field WHERE id = $1',
      [id],
    );
    field.workspace = { id: row!.workspace_id } as Field['workspace'];
    return field;
  }

  async save(em: EntityManager, field: Field): Promise<void> {
    await em.save(field);
  }

  /** Deletes the definition; answers what it was, or undefined when there was none. */
  remove(runner: SqlRunner, id: string): Promise<RemovedField | undefined> {
    return queryOne<RemovedField>(
      runner,
      'DELETE FROM field WHERE id = $1 RETURNING workspace_id, entity, code',
      [id],
    );
  }

  /** Whether another field of the workspace's entity has the code. */
  async codeTaken(
    runner: SqlRunner,
    field: { workspaceId: string; entity: string; code: string; id: string | null },
  ): Promise<boolean> {
    const rows = await query(
      runner,
      `SELECT 1 FROM field
        WHERE workspace_id = $1 AND entity = $2 AND code = $3 AND id IS DISTINCT FROM $4::uuid`,
      [field.workspaceId, field.entity, field.code, field.id],
    );
    return rows.length > 0;
  }

  /** The codes of the workspace's fields of an entity. */
  async codes(runner: SqlRunner, workspaceId: string, entity: string): Promise<string[]> {
    const rows = await query<{ code: string }>(
      runner,
      'SELECT code FROM field WHERE workspace_id = $1 AND entity = $2',
      [workspaceId, entity],
    );
    return rows.map((r) => r.code);
  }

  /** What value validation needs of the workspace's fields of an entity, in creation order. */
  async definitions(
    runner: SqlRunner,
    workspaceId: string,
    entity: string,
  ): Promise<CustomFieldDefinition[]> {
    const rows = await query<DefinitionRow>(
      runner,
      `SELECT code, field_type, readonly, validation, select_options, options, default_value
         FROM field WHERE workspace_id = $1 AND entity = $2 ORDER BY created_at, id`,
      [workspaceId, entity],
    );
    return rows.map((r) => ({
      code: r.code,
      fieldType: r.field_type,
      readonly: r.readonly,
      validation: r.validation,
      selectOptions: r.select_options,
      options: r.options,
      default: r.default_value,
    }));
  }
}
