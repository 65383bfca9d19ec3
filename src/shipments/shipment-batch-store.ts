import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { query, queryOne, type SqlRunner } from '../database/query';

/**
 * The shipment table's SQL for writes over many shipments at once: the batch actions
 * (src/batches: their records, their status) and the moves of a status's records
 * (src/statuses). Statements go as prepared statements on the caller's transaction.
 */
@Injectable()
export class ShipmentBatchStore {
  /**
   * The shipments among `ids` that belong to these workspaces, with their workspace, in id
   * order; locked FOR UPDATE when `lock` (in that order, so concurrent batches never deadlock).
   */
  async records(
    runner: SqlRunner,
    ids: readonly string[],
    workspaceIds: readonly string[],
    lock: boolean,
  ): Promise<Array<{ id: string; workspaceId: string }>> {
    const rows = await query<{ id: string; workspace_id: string }>(
      runner,
      `SELECT id, workspace_id FROM shipment
          WHERE id = ANY($1::uuid[]) AND workspace_id = ANY($2::uuid[])
          ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
      [ids, workspaceIds],
    );
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id }));
  }

  /**
   * Gives the shipments among `ids` their workspace's status (workspace id -> status id),
   * where they have another; answers the ids it changed.
   */
  async assignStatus(
    em: EntityManager,
    ids: readonly string[],
    statusByWorkspace: ReadonlyMap<string, string>,
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      em,
      `UPDATE shipment t SET shipment_status_id = m.status_id, updated_at = now()
           FROM (SELECT unnest($1::uuid[]) AS workspace_id, unnest($2::uuid[]) AS status_id) m
          WHERE t.workspace_id = m.workspace_id AND t.id = ANY($3::uuid[])
            AND t.shipment_status_id IS DISTINCT FROM m.status_id
          RETURNING t.id`,
      [[...statusByWorkspace.keys()], [...statusByWorkspace.values()], ids],
    );
    return rows.map((r) => r.id);
  }

  /** How many shipments of the workspace have the status. */
  async countWithStatus(em: EntityManager, statusId: string, workspaceId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      em,
      'SELECT count(*)::int AS n FROM shipment WHERE shipment_status_id = $1 AND workspace_id = $2',
      [statusId, workspaceId],
    );
    return row!.n;
  }

  /** Gives the workspace's shipments of status `fromId` the status `toId`; answers how many. */
  async moveStatus(
    em: EntityManager,
    fromId: string,
    toId: string,
    workspaceId: string,
  ): Promise<number> {
    const row = await queryOne<{ n: number }>(
      em,
      `WITH moved AS (
         UPDATE shipment SET shipment_status_id = $1, updated_at = now()
          WHERE shipment_status_id = $2 AND workspace_id = $3 RETURNING 1)
       SELECT count(*)::int AS n FROM moved`,
      [toId, fromId, workspaceId],
    );
    return row!.n;
  }
}
