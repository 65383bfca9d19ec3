import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FeedProduct } from './products-feed';
import {
  ProductsFeedStore,
  type FeedProductRow,
  type FeedVariantRow,
  type UpsertCounts,
} from './products-feed-store';

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
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: ProductsFeedStore,
  ) {}

  async import(teamId: string, products: FeedProduct[]): Promise<FeedImportCounts> {
    const productRows: FeedProductRow[] = products.map((p) => ({
      sku: p.sku,
      name: p.name,
      origin_url: p.originUrl,
      image_url: p.imageUrl,
    }));
    const variantRows: FeedVariantRow[] = products.flatMap((p) =>
      p.variants.map((v) => ({
        sku: v.sku,
        product_sku: p.sku,
        price: v.price,
        image_url: v.imageUrl,
      })),
    );
    return this.dataSource.transaction(async (em) => {
      await this.store.lockTeam(em, teamId);
      const productCounts = await this.store.upsertProducts(em, teamId, productRows);
      // Rows without a price leave the stored one alone (and new variants take the default 0).
      const variantCounts = { created: 0, updated: 0 };
      for (const withPrice of [true, false]) {
        const rows = variantRows.filter((r) => (r.price !== null) === withPrice);
        if (rows.length === 0) continue;
        const written = await this.store.upsertVariants(em, teamId, rows, withPrice);
        variantCounts.created += written.created;
        variantCounts.updated += written.updated;
      }
      const counts = (row: UpsertCounts, total: number) => ({
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
