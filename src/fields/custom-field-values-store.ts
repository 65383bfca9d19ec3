import { Injectable } from '@nestjs/common';
import { queryOne, query, type SqlRunner } from '../database/query';
import type { ResourceMeta } from '../hydra/core/resource-meta';
import { quoteIdent } from '../hydra/core/sql-query';

/** A record's custom field values as stored, with its workspace. */
export interface StoredValues {
  workspaceId: string;
  values: Record<string, unknown> | null;
}

/**
 * The values of custom fields on the records of the resources that carry them (orders,
 * shipments: `validatedBy: 'customFields'`, a `custom_fields` jsonb column). The statements
 * are made from the resource's declaration (its table and column), as the Hydra layer makes
 * its own: this module names no other module's table.
 */
@Injectable()
export class CustomFieldValuesStore {
  /** The record's values of the `column` property before a write, and its workspace. */
  async stored(
    runner: SqlRunner,
    resource: ResourceMeta,
    column: string,
    id: string,
  ): Promise<StoredValues | undefined> {
    const row = await queryOne<{ workspace_id: string; v: Record<string, unknown> | null }>(
      runner,
      `SELECT workspace_id, ${quoteIdent(column)} AS v FROM ${quoteIdent(resource.table)} WHERE id = $1`,
      [id],
    );
    return row && { workspaceId: row.workspace_id, values: row.v };
  }

  /** A definition deleted: its value goes from every record of the workspace. */
  async drop(
    runner: SqlRunner,
    resource: ResourceMeta,
    workspaceId: string,
    code: string,
  ): Promise<void> {
    await query(
      runner,
      `UPDATE ${quoteIdent(resource.table)} SET custom_fields = custom_fields - $2::text
        WHERE workspace_id = $1 AND custom_fields ? $2::text`,
      [workspaceId, code],
    );
  }
}
