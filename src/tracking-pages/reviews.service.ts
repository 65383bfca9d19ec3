import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import type { Budget } from '../rate-limit/rate-budget';
import { RateBudgets } from '../rate-limit/rate-budget';
import { ShipmentPageStore } from '../shipments/shipment-page-store';
import { ReviewStore } from './review-store';
import { TrackingPageLinksService } from './tracking-page-links.service';

const SCORES = ['carrierScore', 'productScore', 'packagingScore'] as const;
export const COMMENT_MAX_LENGTH = 5000;

/**
 * Statuses whose shipment may be reviewed. Neither spec.md nor the reference OpenAPI names any:
 * a delivery is what is reviewed (the page shows its form then too).
 */
export const REVIEWABLE_STATUSES: ReadonlySet<string> = new Set(['delivered']);

/**
 * Writes of a link's review: the review and three edits per hour, then 429 for an hour (the
 * link is public to whoever holds it; one review per shipment, replaced by each edit).
 */
export const REVIEW_WRITES: Budget = { name: 'review-write', limit: 4, windowMs: 3600_000 };

/** A review as posted, typed (ReviewInput, or the page's form read by parseReviewForm). */
export interface ReviewSubmission {
  score?: number | null;
  carrierScore?: number | null;
  productScore?: number | null;
  packagingScore?: number | null;
  comment?: string | null;
}

/**
 * Reviews left on a public tracking page: scores 1 to 5 (carrier, product, packaging as in
 * the reference service, or one overall `score`), an optional comment, for a delivered
 * shipment. One review per shipment: a later one edits it, within REVIEW_WRITES per link.
 * The shipment's `review` and `reviewTotalScore` follow in the same transaction.
 */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly links: TrackingPageLinksService,
    private readonly budgets: RateBudgets,
    private readonly store: ReviewStore,
    private readonly shipments: ShipmentPageStore,
  ) {}

  async submit(hash: string, body: ReviewSubmission): Promise<string> {
    const linked = await this.links.resolve(hash);
    const violations: Violation[] = [];
    if (!linked.reviewsEnabled)
      throw ValidationError.of(
        '',
        'Reviews are disabled on this tracking page.',
        ViolationCodes.invalid,
      );
    const scores: Record<string, number | null> = {};
    for (const key of [...SCORES, 'score'] as const) {
      const value = body[key];
      if (value === undefined || value === null) {
        scores[key] = null;
        continue;
      }
      if (value < 1 || value > 5)
        violations.push({
          propertyPath: key,
          message: 'This value should be between 1 and 5.',
          code: ViolationCodes.range,
        });
      scores[key] = value;
    }
    const given = SCORES.map((k) => scores[k]).filter((v): v is number => v !== null);
    if (given.length === 0 && scores.score === null)
      for (const key of SCORES)
        violations.push({
          propertyPath: key,
          message: 'This value should not be null.',
          code: ViolationCodes.notNull,
        });
    const comment = body.comment;
    if (typeof comment === 'string' && [...comment].length > COMMENT_MAX_LENGTH)
      violations.push({
        propertyPath: 'comment',
        message: `This value is too long. It should have ${COMMENT_MAX_LENGTH} characters or less.`,
        code: ViolationCodes.tooLong,
      });
    if (violations.length) throw new ValidationError(violations);
    const status = await this.shipments.trackingStatus(linked.shipmentId);
    if (status === null || !REVIEWABLE_STATUSES.has(status))
      throw ValidationError.of(
        '',
        'Reviews can be left once the shipment is delivered.',
        ViolationCodes.invalid,
      );
    // Spent by accepted reviews only: a refused one changes nothing.
    await this.budgets.spend(
      REVIEW_WRITES,
      linked.linkId,
      'This review was changed too often; retry later.',
    );
    const all = given.length ? given : [scores.score as number];
    const total = Math.round((all.reduce((a, b) => a + b, 0) / all.length) * 100) / 100;
    return this.dataSource.transaction(async (em) => {
      const id = await this.store.upsert(em, {
        workspaceId: linked.workspaceId,
        shipmentId: linked.shipmentId,
        trackingPageId: linked.trackingPageId,
        carrierScore: scores.carrierScore,
        productScore: scores.productScore,
        packagingScore: scores.packagingScore,
        totalScore: total,
        comment: typeof comment === 'string' && comment.trim() ? comment : null,
      });
      await this.shipments.recordReview(em, linked.shipmentId, `/reviews/${id}`, total);
      return id;
    });
  }
}
