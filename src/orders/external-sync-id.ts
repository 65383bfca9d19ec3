import type { EntityManager } from 'typeorm';
import { BadRequestError } from '../hydra/errors/api-errors';

/** Tables whose rows a store integration syncs by the store's own id. */
export type SyncedTable = 'order' | 'order_item';

const NOUN: Record<SyncedTable, string> = { order: 'order', order_item: 'order item' };

/**
 * Refuses a second record of the workspace with the same store id from the same integration,
 * as the reference does: a 400 whose text names `externalSourceSyncId`, which the store
 * plugins look for to find the existing record (`?externalSourceSyncId=..`) instead of
 * creating it again. A transaction-scoped advisory lock on the triple serialises concurrent
 * posts of one record, so two retries of one sync cannot both pass the check.
 */
export async function refuseDuplicateSyncId(
  em: EntityManager,
  table: SyncedTable,
  workspaceId: string,
  integration: string | null,
  syncId: string | null,
): Promise<void> {
  if (syncId === null) return;
  const key = `${table}:${workspaceId}:${integration ?? ''}:${syncId}`;
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
  const taken = await em.query(
    `SELECT 1 FROM "${table}" WHERE workspace_id = $1 AND external_source_sync_id = $2
        AND external_source_integration IS NOT DISTINCT FROM $3 LIMIT 1`,
    [workspaceId, syncId, integration],
  );
  if (taken.length) {
    throw new BadRequestError(
      `externalSourceSyncId: An ${NOUN[table]} with this externalSourceSyncId already exists for this integration.`,
    );
  }
}
