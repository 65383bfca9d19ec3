import { BadRequestError } from '../common/errors/api-errors';

/** Records a store integration syncs by the store's own id. */
export type SyncedRecord = 'order' | 'order_item' | 'product';

const NOUN: Record<SyncedRecord, string> = {
  order: 'An order',
  order_item: 'An order item',
  product: 'A product',
};

/**
 * Refuses a second record of the workspace (products: of the team) with the same store id
 * from the same integration, as the reference does: a 400 whose text names
 * `externalSourceSyncId`, which the store plugins look for to find the existing record
 * (`?externalSourceSyncId=..`) instead of creating it again. `taken` asks the record's store,
 * which serialises concurrent posts of one record (a transaction lock on the store id), so
 * two retries of one sync cannot both pass the check. A record without a store id is never
 * refused.
 */
export async function refuseDuplicateSyncId(
  record: SyncedRecord,
  syncId: string | null,
  taken: (syncId: string) => Promise<boolean>,
): Promise<void> {
  if (syncId === null) return;
  if (await taken(syncId)) {
    throw new BadRequestError(
      `externalSourceSyncId: ${NOUN[record]} with this externalSourceSyncId already exists for this integration.`,
    );
  }
}

/**
 * refuseDuplicateSyncId for one record of a batch of new ones, in their order: `taken` holds
 * the keys (`keyOf` a store id) its store found written already and gains this record's, so a
 * later record of the batch with the same store id is refused as its second POST would be.
 * Answers the refusal, or null.
 */
export async function duplicateInBatch(
  record: SyncedRecord,
  syncId: string | null,
  keyOf: (syncId: string) => string,
  taken: Set<string>,
): Promise<Error | null> {
  try {
    await refuseDuplicateSyncId(record, syncId, (id) => {
      const key = keyOf(id);
      const duplicate = taken.has(key);
      taken.add(key);
      return Promise.resolve(duplicate);
    });
    return null;
  } catch (error) {
    return error as Error;
  }
}
