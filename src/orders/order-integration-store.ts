import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/**
 * The order table's SQL for DELETE /workflows/{id}?deleteData=1
 * (src/workflows/integration-data.ts): the orders an integration brought in (they name it
 * by its IRI, `/workflows/<id>`).
 */
@Injectable()
export class OrderIntegrationStore {
  /** Ids of the workspace's orders the workflow brought in, locked in id order. */
  async broughtIn(runner: SqlRunner, workspaceId: string, workflowId: string): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT id FROM "order" WHERE workspace_id = $2 AND external_source_integration = $1
        ORDER BY id FOR UPDATE`,
      [`/workflows/${workflowId}`, workspaceId],
    );
    return rows.map((r) => r.id);
  }

  /** Whether the record is still there (a cascade of an earlier delete may have taken it). */
  async exists(runner: SqlRunner, id: string): Promise<boolean> {
    return (await query(runner, 'SELECT 1 FROM "order" WHERE id = $1', [id])).length > 0;
  }
}
