import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FeedProduct } from './products-feed';

export interface FeedImportCounts {
  products: { created: number; updated: number; unchanged: number };
  productVariants: { created: number; updated: number; unchanged: number };
}

/**
 * Imports a checked feed into a team's catalogue in one transaction, set-based (two upserts,
 * whatever the size): products by SKU, variants by SKU (a variant whose SKU moved to another
 * product follows it). Empty cells keep what is stored; a new variant without price costs 0.
 */
@Injectable()
export class ProductsFeedService {
  constructor(private readonly dataSource: DataSource) {}

  async import(teamId: string, products: FeedProduct[]): Promise<FeedImportCounts> {
    const productRows = products.map((p) => ({
      sku: p.sku,
      name: p.name,
      origin_url: p.originUrl,
      image_url: p.imageUrl,
    }));
    const variantRows = products.flatMap((p) =>
      p.variants.map((v) => ({
        sku: v.sku,
        product_sku: p.sku,
        price: v.price,
        image_url: v.imageUrl,
      })),
    );
    return this.dataSource.transaction(async (em) => {
      // One import per team at a time: concurrent feeds would interleave their upserts.
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('products_feed:' || $1))`, [teamId]);
      const [productCounts] = await em.query(
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
        [teamId, JSON.stringify(productRows)],
      );
      // Rows without a price leave the stored one alone (and new variants take the default 0).
      const priced = variantRows.filter((r) => r.price !== null);
      const unpriced = variantRows.filter((r) => r.price === null);
      const variantCounts = { created: 0, updated: 0 };
      for (const [rows, withPrice] of [
        [priced, true],
        [unpriced, false],
      ] as const) {
        if (rows.length === 0) continue;
        const price = withPrice ? ', price' : '';
        const [written] = await em.query(
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
        variantCounts.created += written.created;
        variantCounts.updated += written.updated;
      }
      const counts = (row: { created: number; updated: number }, total: number) => ({
        created: row.created,
        updated: row.updated,
        unchanged: total - row.created - row.updated,
      });
      return {
        products: counts(productCounts, productRows.length),
        productVariants: counts(variantCounts, variantRows.length),
      };
    });
  }
}
