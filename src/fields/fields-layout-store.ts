import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { query, queryOne, type SqlRunner } from '../database/query';
import { FieldsLayout } from './fields-layout.entity';

/** The fields_layout table's SQL: the field layouts of a workspace's entities. */
@Injectable()
export class FieldsLayoutStore {
  /** Field codes of a workspace's default layout of `entity` (its code is the entity), if any. */
  async defaultLayout(
    runner: SqlRunner,
    workspaceId: string,
    entity: string,
  ): Promise<string[] | null> {
    const row = await queryOne<{ fields: string[] }>(
      runner,
      'SELECT fields FROM fields_layout WHERE workspace_id = $1 AND entity = $2 AND code = $2',
      [workspaceId, entity],
    );
    return row ? row.fields : null;
  }

  /** The layout, locked for the transaction, with its workspace (relations are not loaded). */
  async loadLocked(em: EntityManager, id: string): Promise<FieldsLayout | null> {
    const layout = await em.findOne(FieldsLayout, {
      where: { id },
      lock: { mode: 'pessimistic_write' },
    });
    if (!layout) return null;
    layout.workspace = { id: (await this.workspaceOf(em, id))! } as FieldsLayout['workspace'];
    return layout;
  }

  async workspaceOf(runner: SqlRunner, id: string): Promise<string | null> {
    const row = await queryOne<{ workspace_id: string }>(
      runner,
      'SELECT workspace_id FROM fields_layout WHERE id = $1',
      [id],
    );
    return row?.workspace_id ?? null;
  }

  async save(em: EntityManager, layout: FieldsLayout): Promise<void> {
    await em.save(layout);
  }

  async remove(runner: SqlRunner, id: string): Promise<void> {
    await query(runner, 'DELETE FROM fields_layout WHERE id = $1', [id]);
  }

  /** Whether another layout of the workspace has the code. */
  async codeTaken(
    runner: SqlRunner,
    layout: { workspaceId: string; code: string; id: string | null },
  ): Promise<boolean> {
    const rows = await query(
      runner,
      `SELECT 1 FROM fields_layout
        WHERE workspace_id = $1 AND code = $2 AND id IS DISTINCT FROM $3::uuid`,
      [layout.workspaceId, layout.code, layout.id],
    );
    return rows.length > 0;
  }
}
