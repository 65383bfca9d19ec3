import type { DataSource } from 'typeorm';
import { NotFoundError, ValidationError } from '../common/errors/api-errors';
import { RateLimited, type Budget, type RateBudgets } from '../rate-limit/rate-budget';
import type { ShipmentPageStore } from '../shipments/shipment-page-store';
import { DEFAULT_DROPSHIPPER_SETTINGS } from './dropshipper-settings';
import type { ReviewStore, ReviewWrite } from './review-store';
import { REVIEW_WRITES, ReviewsService } from './reviews.service';
import type { LinkedShipment, TrackingPageLinksService } from './tracking-page-links.service';

const HASH = 'h'.repeat(43);

function linked(values: Partial<LinkedShipment> = {}): LinkedShipment {
  return {
    linkId: 'l-1',
    workspaceId: 'ws-1',
    trackingPageId: 'p-1',
    shipmentId: 's-1',
    reviewsEnabled: true,
    page: {
      title: null,
      subdomain: 'shop',
      domain: null,
      builder: {},
      customThemeId: null,
      sidebarField: null,
      trackingNumberField: null,
    },
    dropshipper: DEFAULT_DROPSHIPPER_SETTINGS,
    ...values,
  };
}

/** review rows (one per shipment) and the shipment's review columns, in memory. */
class MemoryReviews implements Pick<ReviewStore, 'upsert'> {
  readonly byShipment = new Map<string, ReviewWrite & { id: string }>();

  async upsert(_runner: unknown, review: ReviewWrite) {
    const id = this.byShipment.get(review.shipmentId)?.id ?? `r-${this.byShipment.size + 1}`;
    this.byShipment.set(review.shipmentId, { ...review, id });
    return id;
  }
}

class MemoryShipments implements Pick<ShipmentPageStore, 'trackingStatus' | 'recordReview'> {
  readonly status = new Map<string, string | null>([['s-1', 'delivered']]);
  readonly review = new Map<string, { review: string; total: number }>();

  async trackingStatus(id: string) {
    return this.status.get(id) ?? null;
  }

  async recordReview(_runner: unknown, id: string, review: string, total: number) {
    this.review.set(id, { review, total });
  }
}

/** A budget per key counted in memory, blocking past its limit as RateBudgets does. */
class MemoryBudgets implements Pick<RateBudgets, 'spend'> {
  readonly hits = new Map<string, number>();

  async spend(budget: Budget, key: string) {
    const n = (this.hits.get(`${budget.name}:${key}`) ?? 0) + 1;
    this.hits.set(`${budget.name}:${key}`, n);
    if (n > budget.limit) throw new RateLimited(60);
  }
}

function setUp(link: LinkedShipment | null = linked()) {
  const reviews = new MemoryReviews();
  const shipments = new MemoryShipments();
  const budgets = new MemoryBudgets();
  const links = {
    resolve: async () => {
      if (!link) throw new NotFoundError();
      return link;
    },
  };
  const transaction = jest.fn(async (work: (em: unknown) => Promise<unknown>) => work({}));
  const service = new ReviewsService(
    { transaction } as unknown as DataSource,
    links as unknown as TrackingPageLinksService,
    budgets as unknown as RateBudgets,
    reviews as unknown as ReviewStore,
    shipments as unknown as ShipmentPageStore,
  );
  return { service, reviews, shipments, budgets };
}

const paths = (error: unknown) => (error as ValidationError).violations.map((v) => v.propertyPath);

describe('ReviewsService', () => {
  it('stores a delivered shipment’s review and its average on the shipment', async () => {
    const { service, reviews, shipments } = setUp();
    const id = await service.submit(HASH, {
      carrierScore: 5,
      productScore: 4,
      packagingScore: 4,
      comment: 'Fast',
    });
    expect(reviews.byShipment.get('s-1')).toMatchObject({
      id,
      trackingPageId: 'p-1',
      totalScore: 4.33,
      comment: 'Fast',
    });
    expect(shipments.review.get('s-1')).toEqual({ review: `/reviews/${id}`, total: 4.33 });
  });

  it('takes one overall score, and a blank comment as none', async () => {
    const { service, reviews } = setUp();
    await service.submit(HASH, { score: 3, comment: '  ' });
    expect(reviews.byShipment.get('s-1')).toMatchObject({
      carrierScore: null,
      totalScore: 3,
      comment: null,
    });
  });

  it('edits the one review of the shipment, within the link’s budget', async () => {
    const { service, reviews } = setUp();
    const first = await service.submit(HASH, { score: 2 });
    for (let i = 1; i < REVIEW_WRITES.limit; i++)
      await expect(service.submit(HASH, { score: 5 })).resolves.toBe(first);
    expect(reviews.byShipment.get('s-1')?.totalScore).toBe(5);
    await expect(service.submit(HASH, { score: 1 })).rejects.toBeInstanceOf(RateLimited);
    expect(reviews.byShipment.get('s-1')?.totalScore).toBe(5);
  });

  it('refuses a shipment that is not delivered, without spending the budget', async () => {
    const { service, shipments, budgets, reviews } = setUp();
    for (const status of ['in_transit', null]) {
      shipments.status.set('s-1', status);
      const error = await service.submit(HASH, { score: 5 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations[0].message).toBe(
        'Reviews can be left once the shipment is delivered.',
      );
    }
    expect(budgets.hits.size).toBe(0);
    expect(reviews.byShipment.size).toBe(0);
  });

  it('refuses reviews on a page that does not take them', async () => {
    const { service } = setUp(linked({ reviewsEnabled: false }));
    await expect(service.submit(HASH, { score: 5 })).rejects.toMatchObject({
      violations: [{ message: 'Reviews are disabled on this tracking page.' }],
    });
  });

  it('names every bad score and a too long comment at once', async () => {
    const { service, budgets } = setUp();
    const outOfRange = await service
      .submit(HASH, { carrierScore: 0, productScore: 6, comment: 'x'.repeat(5001) })
      .catch((e: unknown) => e);
    expect(paths(outOfRange)).toEqual(['carrierScore', 'productScore', 'comment']);
    const none = await service.submit(HASH, { comment: 'no score' }).catch((e: unknown) => e);
    expect(paths(none)).toEqual(['carrierScore', 'productScore', 'packagingScore']);
    expect(budgets.hits.size).toBe(0);
  });

  it('is a 404 for an unknown link', async () => {
    const { service } = setUp(null);
    await expect(service.submit(HASH, { score: 5 })).rejects.toBeInstanceOf(NotFoundError);
  });
});
