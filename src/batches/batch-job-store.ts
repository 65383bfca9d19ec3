import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { execute, queryOne } from '../database/query';

/** A status change to run in the background, as recorded. */
export interface QueuedStatusChange {
  userId: string;
  /** The collection of the records (`shipments`, `orders`). */
  entity: string;
  /** The status by id, or by its code in each record's workspace. */
  statusId: string | null;
  statusCode: string | null;
  workspaceId: string | null;
  recordIds: readonly string[];
}

/** The batch_job table's SQL: prepared statements on the caller's transaction. */
@Injectable()
export class BatchJobStore {
  /** Records a queued status change; answers its id. */
  async queueStatusChange(em: EntityManager, job: QueuedStatusChange): Promise<string> {
    const row = await queryOne<{ id: string }>(
      em,
      `INSERT INTO batch_job (user_id, operation, entity, target_status_id, status_code, workspace_id, record_ids, total_count)
       VALUES ($1, 'change_status', $2, $3, $4, $5, $6::uuid[], $7) RETURNING id`,
      [
        job.userId,
        job.entity,
        job.statusId,
        job.statusCode,
        job.workspaceId,
        job.recordIds,
        job.recordIds.length,
      ],
    );
    return row!.id;
  }

  /** Marks the job done with what it changed (`result` is stored as JSON). */
  async done(em: EntityManager, id: string, changedCount: number, result: unknown): Promise<void> {
    await execute(
      em,
      `UPDATE batch_job SET status = 'done', changed_count = $2, result = $3::jsonb,
              error = NULL, finished_at = now(), updated_at = now()
        WHERE id = $1`,
      [id, changedCount, JSON.stringify(result)],
    );
  }
}
