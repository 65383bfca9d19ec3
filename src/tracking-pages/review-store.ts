import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/** A shipment's review as written (scores 1 to 5 or null). */
export interface ReviewWrite {
  workspaceId: string;
  shipmentId: string;
  trackingPageId: string;
  carrierScore: number | null;
  productScore: number | null;
  packagingScore: number | null;
  totalScore: number;
  comment: string | null;
}

/** The review table's SQL. */
@Injectable()
export class ReviewStore {
  /** Writes the shipment's review: the first one, or an edit of it. Answers its id. */
  async upsert(runner: SqlRunner, review: ReviewWrite): Promise<string> {
    const [row] = await query<{ id: string }>(
      runner,
      `INSERT INTO review (workspace_id, shipment_id, tracking_page_id, carrier_score, product_score, packaging_score, total_score, comment)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (shipment_id) WHERE shipment_id IS NOT NULL DO UPDATE SET
         tracking_page_id = EXCLUDED.tracking_page_id, carrier_score = EXCLUDED.carrier_score,
         product_score = EXCLUDED.product_score, packaging_score = EXCLUDED.packaging_score,
         total_score = EXCLUDED.total_score, comment = EXCLUDED.comment, updated_at = now()
       RETURNING id`,
      [
        review.workspaceId,
        review.shipmentId,
        review.trackingPageId,
        review.carrierScore,
        review.productScore,
        review.packagingScore,
        review.totalScore,
        review.comment,
      ],
    );
    return row.id;
  }
}
