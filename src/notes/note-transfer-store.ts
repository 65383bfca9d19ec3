import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { execute } from '../database/query';

/**
 * The note table's SQL for records that hand their notes to another record of the same
 * collection (a merge of duplicate shipments): prepared statements on the caller's
 * transaction.
 */
@Injectable()
export class NoteTransferStore {
  /**
   * Moves the notes of the workspace on records `fromIds` of `entity` (a collection:
   * `shipments`) to record `toId`, with their reminders and attachments.
   */
  async moveToRecord(
    em: EntityManager,
    workspaceId: string,
    entity: string,
    fromIds: readonly string[],
    toId: string,
  ): Promise<void> {
    await execute(
      em,
      `UPDATE note SET entity_id = $1, updated_at = now()
        WHERE workspace_id = $3 AND entity = $4 AND entity_id = ANY($2::uuid[])`,
      [toId, fromIds, workspaceId, entity],
    );
  }
}
