import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryOne, type SqlRunner } from '../database/query';
import { TrackingPage } from './tracking-page.entity';

/**
 * What a workspace's writes need of tracking pages: whether a page may be its default, and the
 * default page to update from a nested object.
 */
@Injectable()
export class DefaultTrackingPageStore {
  /** Whether page `pageId` belongs to workspace `workspaceId`. */
  async belongsTo(db: SqlRunner, pageId: string, workspaceId: string | null): Promise<boolean> {
    const row = await queryOne(
      db,
      `SELECT 1 FROM tracking_page WHERE id = $1 AND workspace_id = $2`,
      [pageId, workspaceId],
    );
    return row !== undefined;
  }

  /** A new page (not saved): its columns' defaults set as the entity declares them. */
  create(em: EntityManager): TrackingPage {
    return em.create(TrackingPage);
  }

  async save(em: EntityManager, page: TrackingPage): Promise<void> {
    await em.save(page);
  }

  /** The page, locked until the transaction ends. */
  async lock(em: EntityManager, id: string): Promise<TrackingPage | null> {
    return em.findOne(TrackingPage, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }
}
