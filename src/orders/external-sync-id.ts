import type { EntityManager } from 'typeorm';
import { BadRequestError } from '../common/errors/api-errors';

/** Tables whose rows a store integration syncs by the store's own id. */
export type SyncedTable = 'order' | 'order_item' | 'product';

const NOUN: Record<SyncedTable, string> = {
  order: 'An order',
  order_item: 'An order item',
  product: 'A product',
};
/** Products belong to a team (the catalogue is shared by its workspaces), the rest to a workspace. */
const OWNER: Record<SyncedTable, string> = {
  order: 'workspace_id',
  order_item: 'workspace_id',
  product: 'team_id',
};

/**
 * Refuses a second record of the workspace (products: of the team) with the same store id from the same integration,
 * as the reference does: a 400 whose text names `externalSourceSyncId`, which the store
 * plugins look for to find the existing record (`?externalSourceSyncId=..`) instead of
 * creating it again. A transaction-scoped advisory lock on the triple serialises concurrent
 * posts of one record, so two retries of one sync cannot both pass the check.
 */
export async function refuseDuplicateSyncId(
  em: EntityManager,
  table: SyncedTable,
  ownerId: string,
  integration: string | null,
  syncId: string | null,
): Promise<void> {
  if (syncId === null) return;
  const key = `${table}:${ownerId}:${integration ?? ''}:${syncId}`;
  await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
  const taken = await em.query(
    `SELECT 1 FROM "${table}" WHERE ${OWNER[table]} = $1 AND external_source_sync_id = $2
        AND external_source_integration IS NOT DISTINCT FROM $3 LIMIT 1`,
    [ownerId, syncId, integration],
  );
  if (taken.length) {
    throw new BadRequestError(
      `externalSourceSyncId: ${NOUN[table]} with this externalSourceSyncId already exists for this integration.`,
    );
  }
}
