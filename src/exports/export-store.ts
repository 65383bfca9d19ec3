import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';
import { retentionStatements } from '../retention/retention-rule';

/** An export to queue. */
export interface NewExport {
  userId: string;
  workspaceId: string | null;
  entity: string;
  format: string;
  filters: Array<[string, string]>;
}

/** The file of a finished export. */
export interface ExportFile {
  rowCount: number;
  size: number;
  fileName: string;
  storageKey: string;
}

/** What a download reads of an export. */
export interface StoredExport {
  status: string;
  storage_key: string | null;
  file_name: string | null;
  workspace_id: string | null;
}

/** The export table's SQL (its runs follow the recorded-job protocol: src/jobs/recorded-job.ts). */
@Injectable()
export class ExportStore {
  async create(runner: SqlRunner, request: NewExport): Promise<string> {
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO export (user_id, workspace_id, entity, format, filters)
       VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id`,
      [
        request.userId,
        request.workspaceId,
        request.entity,
        request.format,
        JSON.stringify(request.filters),
      ],
    );
    return row!.id;
  }

  async done(runner: SqlRunner, id: string, file: ExportFile): Promise<void> {
    await query(
      runner,
      `UPDATE export SET status = 'done', row_count = $2, size = $3, file_name = $4,
              storage_key = $5, error = NULL, finished_at = now(), updated_at = now()
        WHERE id = $1`,
      [id, file.rowCount, file.size, file.fileName, file.storageKey],
    );
  }

  find(runner: SqlRunner, id: string): Promise<StoredExport | undefined> {
    return queryOne<StoredExport>(
      runner,
      'SELECT status, storage_key, file_name, workspace_id FROM export WHERE id = $1',
      [id],
    );
  }
}

/**
 * Exports done or failed go RETENTION_DAYS_EXPORTS after `finished_at` (queued and running
 * ones stay); their stored files are handed to the media file sweeper by the table's
 * export_queue_file_gc trigger.
 */
export const EXPORT_RETENTION = retentionStatements({
  table: 'export',
  category: 'exports',
  where: `x.status IN ('done', 'failed') AND x.finished_at < $1`,
  fileKey: 'storage_key',
});
