import { Documented } from '../../hydra/validation/documented';
import type { FeedField } from './products-feed';

const FIELDS: readonly FeedField[] = [
  'sku',
  'productSku',
  'name',
  'price',
  'imageUrl',
  'originUrl',
];

/** An error or warning of a feed, by line and column. */
export class FeedIssueOutput {
  @Documented({
    type: 'integer',
    nullable: true,
    required: true,
    description: 'File line (header = 1); null: the whole feed.',
  })
  line!: number | null;
  @Documented({ type: 'string', nullable: true, required: true }) column!: string | null;
  @Documented({ type: 'string', required: true }) message!: string;
}

/** A column of the feed and the variant field it fills (null: ignored). */
export class FeedColumn {
  @Documented({ type: 'string', required: true }) name!: string;
  @Documented({ type: 'string', enum: FIELDS, nullable: true, required: true })
  field!: FeedField | null;
}

/** A preview card of a variant, as a tracking page shows products. */
export class ProductCard {
  @Documented({ type: 'string', nullable: true, required: true }) title!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) buttonUrl!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) imageUrl!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) regularPrice!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) discountedPrice!: string | null;
}

/** The report of `POST /products_feed/verify`. */
export class VerifyProductsFeedResponse {
  @Documented({ type: 'boolean', required: true, description: 'Whether the feed could be read.' })
  accessible!: boolean;
  @Documented({ type: 'boolean', required: true, description: 'Read, and without errors.' })
  verified!: boolean;
  @Documented({ type: 'array', of: () => ProductCard, required: true }) items!: ProductCard[];
  @Documented({ type: 'array', of: () => FeedColumn, required: true }) columns!: FeedColumn[];
  @Documented({ type: 'integer', required: true }) rowCount!: number;
  @Documented({ type: 'integer', required: true }) productCount!: number;
  @Documented({ type: 'integer', required: true }) variantCount!: number;
  @Documented({ type: 'integer', description: 'All errors (the lists hold the first 200).' })
  errorCount?: number;
  @Documented({ type: 'array', of: () => FeedIssueOutput, required: true })
  errors!: FeedIssueOutput[];
  @Documented({ type: 'array', of: () => FeedIssueOutput, required: true })
  warnings!: FeedIssueOutput[];
}

/** Records an import created, updated, or left as they were. */
export class UpsertCounts {
  @Documented({ type: 'integer', required: true }) created!: number;
  @Documented({ type: 'integer', required: true }) updated!: number;
  @Documented({ type: 'integer', required: true }) unchanged!: number;
}

/** What `POST /products_feed/import` wrote. */
export class ImportProductsFeedResponse {
  @Documented({ type: 'string', required: true, description: 'The team IRI.' }) team!: string;
  @Documented({ type: 'string', enum: ['csv'], required: true }) feedType!: 'csv';
  @Documented({ type: 'integer', required: true }) rowCount!: number;
  @Documented({ of: () => UpsertCounts, required: true }) products!: UpsertCounts;
  @Documented({ of: () => UpsertCounts, required: true }) productVariants!: UpsertCounts;
  @Documented({ type: 'array', of: () => FeedIssueOutput, required: true })
  warnings!: FeedIssueOutput[];
}
