import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';
import type { ImportEntity } from './import-fields';

/** An import to store with its file's text. */
export interface NewImport {
  workspaceId: string;
  userId: string;
  entity: ImportEntity;
  fileOriginalName: string | null;
  fileMimeType: string | null;
  fileSize: number;
  mapping: Record<string, string>;
  content: string;
  totalRows: number;
}

/** An import claimed by its job. */
export interface ClaimedImport {
  user_id: string | null;
  workspace_id: string;
  entity: ImportEntity;
  mapping: Record<string, string>;
  attempts: number;
  processed_rows: number;
  content: string | null;
  file_original_name: string | null;
}

/** A refused row as the import lists it. */
export interface RowError {
  line: number | null;
  message: string;
}

/** The import table's SQL: imports, their claim by the job, and their progress row by row. */
@Injectable()
export class ImportStore {
  async create(runner: SqlRunner, i: NewImport): Promise<string> {
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO import (workspace_id, user_id, entity, file_original_name, file_mime_type,
                           file_size, mapping, content, total_rows)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) RETURNING id`,
      [
        i.workspaceId,
        i.userId,
        i.entity,
        i.fileOriginalName,
        i.fileMimeType,
        i.fileSize,
        JSON.stringify(i.mapping),
        i.content,
        i.totalRows,
      ],
    );
    return row!.id;
  }

  /** Claims a pending or processing import (attempts + 1); undefined when finished or gone. */
  claim(runner: SqlRunner, id: string): Promise<ClaimedImport | undefined> {
    return queryOne<ClaimedImport>(
      runner,
      `UPDATE import SET status = 'processing', attempts = attempts + 1,
              started_at = COALESCE(started_at, now()), updated_at = now()
        WHERE id = $1 AND status IN ('pending', 'processing')
        RETURNING user_id, workspace_id, entity, mapping, attempts, processed_rows, content,
                  file_original_name`,
      [id],
    );
  }

  /** The import's progress, locked for the transaction of one row. */
  progress(
    runner: SqlRunner,
    id: string,
  ): Promise<{ processed_rows: number; status: string } | undefined> {
    return queryOne<{ processed_rows: number; status: string }>(
      runner,
      'SELECT processed_rows, status FROM import WHERE id = $1 FOR UPDATE',
      [id],
    );
  }

  /** One row processed: created, or refused with `error` (listed while under `maxListed`). */
  async rowDone(
    runner: SqlRunner,
    id: string,
    error: RowError | null,
    maxListed: number,
  ): Promise<void> {
    await query(
      runner,
      `UPDATE import SET processed_rows = processed_rows + 1,
              created_count = created_count + $2,
              failed_count = failed_count + $3,
              errors = CASE WHEN $4::jsonb IS NULL OR jsonb_array_length(errors) >= $5 THEN errors
                            ELSE errors || $4::jsonb END,
              updated_at = now()
        WHERE id = $1`,
      [id, error ? 0 : 1, error ? 1 : 0, error ? JSON.stringify([error]) : null, maxListed],
    );
  }

  /**
   * The final status of a processing import, its file's text dropped (and `reason` listed);
   * its counts, or undefined when it was not processing.
   */
  finish(
    runner: SqlRunner,
    id: string,
    status: 'completed' | 'failed',
    reason: string | null,
  ): Promise<{ created_count: number; failed_count: number } | undefined> {
    return queryOne<{ created_count: number; failed_count: number }>(
      runner,
      `UPDATE import SET status = $2, finished_at = now(), content = NULL, updated_at = now(),
              errors = CASE WHEN $3::jsonb IS NULL THEN errors ELSE errors || $3::jsonb END
        WHERE id = $1 AND status = 'processing'
        RETURNING created_count, failed_count`,
      [id, status, reason ? JSON.stringify([{ line: null, message: reason }]) : null],
    );
  }
}
