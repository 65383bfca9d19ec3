import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { FileStorage, safeFileName } from './file-storage';
import { storedMediaType } from './sniff-media-type';
import { attachMedia } from './workspace-media';

export interface UploadedFile {
  buffer: Buffer;
  originalname?: string;
  mimetype?: string;
  size: number;
}

/** Stores uploads and hands media to the records that use them. */
@Injectable()
export class MediaService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: FileStorage,
  ) {}

  /** The media type of the stored file behind `key`, or null when no media row uses it. */
  async storedType(key: string): Promise<string | null> {
    const rows: Array<{ mime_type: string }> = await this.dataSource.query(
      `SELECT mime_type FROM media WHERE storage_key = $1 LIMIT 1`,
      [key],
    );
    return rows[0]?.mime_type ?? null;
  }

  /**
   * Stores the file, then its row (in `em` when given, so the caller's transaction owns it).
   * The file is removed again when the row cannot be written.
   */
  async upload(
    principal: Principal,
    file: UploadedFile,
    options: { workspaceId?: string | null; originalName?: string | null; em?: EntityManager } = {},
  ): Promise<string> {
    const name = options.originalName?.trim() || file.originalname || null;
    const key = `${randomUUID()}/${safeFileName(name)}`;
    await this.storage.save(key, file.buffer);
    try {
      const rows = await (options.em ?? this.dataSource).query(
        `INSERT INTO media (workspace_id, uploaded_by_id, storage_key, file_path, original_name, mime_type, size)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          options.workspaceId ?? null,
          principal.userId,
          key,
          this.storage.publicPath(key),
          name ? name.slice(0, 255) : null,
          storedMediaType(file.buffer, file.mimetype),
          file.buffer.length,
        ],
      );
      return rows[0].id as string;
    } catch (error) {
      await this.storage.remove(key).catch(() => undefined);
      throw error;
    }
  }

  /** attachMedia (workspace-media.ts): the media row of `workspaceId` for that file. */
  attach(em: EntityManager, mediaId: string, workspaceId: string): Promise<string> {
    return attachMedia(em, mediaId, workspaceId);
  }

  /** `{id, filePath}` of a media row, as records embed it; null when absent. */
  async summary(em: EntityManager, mediaId: string): Promise<MediaSummary | null> {
    const rows = await em.query(`SELECT id, file_path, mime_type FROM media WHERE id = $1`, [
      mediaId,
    ]);
    return rows.length
      ? { id: rows[0].id, filePath: rows[0].file_path, mimeType: rows[0].mime_type }
      : null;
  }

  /**
   * Removes stored files whose last media row is gone (queued by the media_file_gc trigger,
   * cascades included). Safe on many nodes at once: each takes its own batch.
   */
  async sweepOrphanFiles(limit = 200): Promise<number> {
    const removed = await this.dataSource.transaction(async (em) => {
      // DELETE ... RETURNING answers [rows, count] through TypeORM.
      const [rows]: [Array<{ storage_key: string; in_use: boolean }>, number] = await em.query(
        `DELETE FROM media_file_gc g
          WHERE g.storage_key IN (SELECT storage_key FROM media_file_gc ORDER BY queued_at LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING g.storage_key, EXISTS (SELECT 1 FROM media m WHERE m.storage_key = g.storage_key) AS in_use`,
        [limit],
      );
      return rows.filter((r) => !r.in_use).map((r) => r.storage_key);
    });
    // After commit: a failed removal leaves a stray file, never a row without its file.
    for (const key of removed) await this.storage.remove(key).catch(() => undefined);
    return removed.length;
  }
}

export interface MediaSummary {
  id: string;
  filePath: string;
  mimeType: string;
}
