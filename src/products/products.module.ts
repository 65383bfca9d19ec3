import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ProductsFeedController } from './feed/products-feed.controller';
import { ProductsFeedService } from './feed/products-feed.service';
import { ProductsFeedStore } from './feed/products-feed-store';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { ProductIntegrationStore } from './product-integration-store';
import { ProductStore } from './product-store';
import { ProductsService, ProductVariantsService } from './products.service';

export class ProductsController extends ResourceController(Product, ProductsService) {}
export class ProductVariantsController extends ResourceController(
  ProductVariant,
  ProductVariantsService,
) {}

@Module({
  controllers: [ProductsFeedController, ProductsController, ProductVariantsController],
  providers: [
    ProductsService,
    ProductVariantsService,
    ProductsFeedService,
    ProductsFeedStore,
    ProductStore,
    ProductIntegrationStore,
  ],
  exports: [ProductStore, ProductIntegrationStore],
})
export class ProductsModule {}
