import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockForTransaction } from '../../database/advisory-lock';
import { queryOne } from '../../database/query';

/** A product row of a feed: empty cells are null (they keep what is stored). */
export interface FeedProductRow {
  sku: string;
  name: string | null;
  origin_url: string | null;
  image_url: string | null;
}

/** A variant row of a feed, with the SKU of its product. */
export interface FeedVariantRow {
  sku: string;
  product_sku: string;
  price: string | null;
  image_url: string | null;
}

/** Rows an upsert inserted and updated (the others were unchanged). */
export interface UpsertCounts {
  created: number;
  updated: number;
}

/**
 * The catalogue tables' SQL for a feed import: set-based upserts (one statement whatever the
 * size) on the caller's transaction.
 */
@Injectable()
export class ProductsFeedStore {
  /** One import per team at a time: concurrent feeds would interleave their upserts. */
  async lockTeam(em: EntityManager, teamId: string): Promise<void> {
    await lockForTransaction(em, `products_feed:${teamId}`);
  }

  /** Products by SKU: new ones inserted, given cells written over stored ones. */
  async upsertProducts(
    em: EntityManager,
    teamId: string,
    rows: readonly FeedProductRow[],
  ): Promise<UpsertCounts> {
    const counts = await queryOne<UpsertCounts>(
      em,
      `WITH src AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb)
           AS x(sku text, name text, origin_url text, image_url text)),
       written AS (
         INSERT INTO product AS p (team_id, sku, name, origin_url, image_url)
         SELECT $1, sku, name, origin_url, image_url FROM src ORDER BY sku
         ON CONFLICT (team_id, sku) WHERE sku IS NOT NULL DO UPDATE SET
           name = COALESCE(EXCLUDED.name, p.name),
           origin_url = COALESCE(EXCLUDED.origin_url, p.origin_url),
           image_url = COALESCE(EXCLUDED.image_url, p.image_url),
           updated_at = now()
         WHERE (p.name, p.origin_url, p.image_url) IS DISTINCT FROM
               (COALESCE(EXCLUDED.name, p.name), COALESCE(EXCLUDED.origin_url, p.origin_url),
                COALESCE(EXCLUDED.image_url, p.image_url))
         RETURNING (xmax = 0) AS inserted)
       SELECT count(*) FILTER (WHERE inserted)::int AS created,
              count(*) FILTER (WHERE NOT inserted)::int AS updated
         FROM written`,
      [teamId, JSON.stringify(rows)],
    );
    return counts!;
  }

  /**
   * Variants by SKU (a variant whose SKU moved to another product follows it). `withPrice`:
   * the rows' prices are written; without, the stored price stays (new variants cost 0).
   */
  async upsertVariants(
    em: EntityManager,
    teamId: string,
    rows: readonly FeedVariantRow[],
    withPrice: boolean,
  ): Promise<UpsertCounts> {
    const price = withPrice ? ', price' : '';
    const counts = await queryOne<UpsertCounts>(
      em,
      `WITH src AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb)
           AS x(sku text, product_sku text, price numeric, image_url text)),
       written AS (
         INSERT INTO product_variant AS v (team_id, product_id, sku, image_url${price})
         SELECT $1, p.id, s.sku, s.image_url${withPrice ? ', s.price' : ''}
           FROM src s JOIN product p ON p.team_id = $1 AND p.sku = s.product_sku
          ORDER BY s.sku
         ON CONFLICT (team_id, sku) DO UPDATE SET
           product_id = EXCLUDED.product_id,
           image_url = COALESCE(EXCLUDED.image_url, v.image_url),
           ${withPrice ? 'price = EXCLUDED.price,' : ''}
           updated_at = now()
         WHERE (v.product_id, v.image_url${withPrice ? ', v.price' : ''}) IS DISTINCT FROM
               (EXCLUDED.product_id, COALESCE(EXCLUDED.image_url, v.image_url)${withPrice ? ', EXCLUDED.price' : ''})
         RETURNING (xmax = 0) AS inserted)
       SELECT count(*) FILTER (WHERE inserted)::int AS created,
              count(*) FILTER (WHERE NOT inserted)::int AS updated
         FROM written`,
      [teamId, JSON.stringify(rows)],
    );
    return counts!;
  }
}
