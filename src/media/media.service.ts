import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { FileStorage, safeFileName } from './file-storage';
import { MediaStore } from './media-store';
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
    private readonly store: MediaStore,
  ) {}

  /** The media type of the stored file behind `key`, or null when no media row uses it. */
  async storedType(key: string): Promise<string | null> {
    return this.store.storedType(this.dataSource, key);
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
      return await this.store.insert(options.em ?? this.dataSource, {
        workspaceId: options.workspaceId ?? null,
        uploadedById: principal.userId,
        storageKey: key,
        filePath: this.storage.publicPath(key),
        originalName: name ? name.slice(0, 255) : null,
        mimeType: storedMediaType(file.buffer, file.mimetype),
        size: file.buffer.length,
      });
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
    const row = await this.store.summary(em, mediaId);
    return row ? { id: row.id, filePath: row.file_path, mimeType: row.mime_type } : null;
  }

  /**
   * Removes stored files whose last media row is gone (queued by the media_file_gc trigger,
   * cascades included). Safe on many nodes at once: each takes its own batch.
   */
  async sweepOrphanFiles(limit = 200): Promise<number> {
    const removed = await this.dataSource.transaction(async (em) => {
      const rows = await this.store.takeQueuedFiles(em, limit);
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
