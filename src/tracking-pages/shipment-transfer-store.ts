import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { execute, queryOne } from '../database/query';

/** A review moved to another shipment. */
export interface MovedReview {
  id: string;
  totalScore: number;
}

/**
 * The tracking_page_link and review tables' SQL for shipments that hand what their customers
 * hold to another shipment (a merge of duplicates): prepared statements on the caller's
 * transaction. `fromIds` are in the caller's order: where several have one, the first wins.
 */
@Injectable()
export class ShipmentTransferStore {
  /**
   * A customer holding a link to one of `fromIds` keeps a working page: per tracking page
   * the target has no link of, the oldest of their links moves to it (one link per page).
   */
  async moveLinks(em: EntityManager, toId: string, fromIds: readonly string[]): Promise<void> {
    await execute(
      em,
      `UPDATE tracking_page_link SET shipment_id = $1
        WHERE id IN (
          SELECT DISTINCT ON (tracking_page_id) id FROM tracking_page_link
           WHERE shipment_id = ANY($2::uuid[])
             AND tracking_page_id NOT IN (
               SELECT tracking_page_id FROM tracking_page_link WHERE shipment_id = $1)
           ORDER BY tracking_page_id, created_at, id)`,
      [toId, fromIds],
    );
  }

  /**
   * One review per shipment: when the target has none, the first of `fromIds`' reviews moves
   * to it. Answers the review moved, if any.
   */
  async moveReview(
    em: EntityManager,
    toId: string,
    fromIds: readonly string[],
  ): Promise<MovedReview | undefined> {
    const row = await queryOne<{ id: string; total_score: number }>(
      em,
      `UPDATE review SET shipment_id = $1, updated_at = now()
          WHERE id = (
            SELECT r.id FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
              JOIN review r ON r.shipment_id = o.id ORDER BY o.ord LIMIT 1)
            AND NOT EXISTS (SELECT 1 FROM review WHERE shipment_id = $1)
          RETURNING id, total_score`,
      [toId, fromIds],
    );
    return row && { id: row.id, totalScore: row.total_score };
  }
}
