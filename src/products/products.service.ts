import { Injectable } from '@nestjs/common';
import { Violation, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { refuseDuplicateSyncId } from '../orders/external-sync-id';
import { blankToNull } from '../shipments/text-input';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { ProductStore } from './product-store';

/**
 * Product rules: trimmed text, blank values stored as null (a blank SKU is no SKU); a store
 * integration's product is created once per store id (a re-post is a 400 naming
 * externalSourceSyncId, which store plugins look for).
 */
@Injectable()
export class ProductsService implements ResourceHooks<Product> {
  constructor(private readonly products: ProductStore) {}

  async validate(product: Product, ctx: WriteContext): Promise<Violation[]> {
    const teamId = product.team?.id;
    if (ctx.operation === 'post' && teamId) {
      await refuseDuplicateSyncId('product', product.externalSourceSyncId, (syncId) =>
        this.products.syncIdTaken(ctx.em, teamId, product.externalSourceIntegration, syncId),
      );
    }
    return [];
  }

  prepare(product: Product): void {
    product.name = blankToNull(product.name);
    product.sku = blankToNull(product.sku);
    product.originUrl = blankToNull(product.originUrl);
    product.imageUrl = blankToNull(product.imageUrl);
    product.externalSourceSyncId = blankToNull(product.externalSourceSyncId);
    product.externalSourceIntegration = blankToNull(product.externalSourceIntegration);
  }
}

/** Variant rules: a trimmed SKU, and the product must be one of the variant's team. */
@Injectable()
export class ProductVariantsService implements ResourceHooks<ProductVariant> {
  constructor(private readonly products: ProductStore) {}

  prepare(variant: ProductVariant): void {
    if (typeof variant.sku === 'string') variant.sku = variant.sku.trim();
    variant.imageUrl = blankToNull(variant.imageUrl);
    variant.externalSourceSyncId = blankToNull(variant.externalSourceSyncId);
    variant.externalSourceIntegration = blankToNull(variant.externalSourceIntegration);
  }

  async validate(variant: ProductVariant, ctx: WriteContext): Promise<Violation[]> {
    if (ctx.operation !== 'post') return [];
    const productTeam = await this.products.teamOf(ctx.em, variant.product.id);
    if (productTeam !== null && productTeam !== variant.team.id) {
      return [
        {
          propertyPath: 'product',
          message: 'The product must belong to the team of the variant.',
          code: ViolationCodes.invalid,
        },
      ];
    }
    return [];
  }
}
