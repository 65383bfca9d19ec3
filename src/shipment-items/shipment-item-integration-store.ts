import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/**
 * The shipment_item table's SQL for DELETE /workflows/{id}?deleteData=1
 * (src/workflows/integration-data.ts): the shipment items an integration brought in.
 */
@Injectable()
export class ShipmentItemIntegrationStore {
  /** Ids of the workspace's shipment items the workflow brought in, locked in id order. */
  async broughtIn(runner: SqlRunner, workspaceId: string, workflowId: string): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT id FROM shipment_item WHERE workspace_id = $2 AND external_source_integration_id = $1
        ORDER BY id FOR UPDATE`,
      [workflowId, workspaceId],
    );
    return rows.map((r) => r.id);
  }

  /** Whether the record is still there (a cascade of an earlier delete may have taken it). */
  async exists(runner: SqlRunner, id: string): Promise<boolean> {
    return (await query(runner, 'SELECT 1 FROM shipment_item WHERE id = $1', [id])).length > 0;
  }
}
