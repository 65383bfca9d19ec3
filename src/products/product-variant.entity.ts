import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import {
  GreaterThanOrEqual,
  LessThanOrEqual,
  MaxLength,
  NotBlank,
  Regex,
} from '../hydra/validation/constraints';
import { WORKFLOW_IRI_PATTERN } from '../shipments/shipment.entity';
import { Team } from '../teams/team.entity';
import { Product, WEB_URL } from './product.entity';

/** Largest price a numeric(14,4) column holds. */
export const MAX_PRICE = 9_999_999_999;

/**
 * A sellable variant of a product (size, colour): its own SKU, unique within the team, and a
 * price in the store currency (0 by default). The team is the product's team.
 */
@ApiResource({
  path: '/product_variants',
  nested: [{ path: '/products/:id/product_variants', params: { id: 'product' } }],
  tenancy: { team: 'team' },
  uniqueConstraints: {
    uq_product_variant_team_sku: {
      property: 'sku',
      message: 'This SKU is already used by another product variant of the team.',
    },
  },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A variant of a product, with its own SKU and price.',
})
@ApiFilter(
  new ExactFilter(['id', ['sku', { array: false }], 'team', 'product']),
  new OrderFilter(['id', 'sku', 'price', 'createdAt', 'updatedAt']),
)
@Entity('product_variant')
export class ProductVariant {
  @ApiProperty({ description: 'A unique version 4 UUID.' })
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'], description: 'The team the variant belongs to.' })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Team, { onDelete: 'CASCADE', nullable: false })
  team: Team;

  @ApiProperty({ writable: ['post'], example: 'JACKET-BLACK' })
  @NotBlank({ on: ['post'] })
  @MaxLength(255)
  @Column('text')
  sku: string;

  @ApiProperty({ writable: ['post', 'put'], example: 'https://my-store.example/media/black.jpg' })
  @MaxLength(2048)
  @Regex(WEB_URL, { message: 'This value is not a valid URL.' })
  @Column('text', { nullable: true })
  imageUrl: string | null;

  @ApiProperty({ writable: ['post'], description: 'The product the variant belongs to.' })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Product, { onDelete: 'CASCADE', nullable: false })
  product: Product;

  /** Stored exactly (numeric); read and written as a number like the reference. */
  @ApiProperty({ writable: ['post', 'put'], type: 'number', nullable: true, example: 9.99 })
  @GreaterThanOrEqual(0)
  @LessThanOrEqual(MAX_PRICE)
  @Column('numeric', { precision: 14, scale: 4, nullable: true, default: 0 })
  price: number | null;

  @ApiProperty({ writable: ['post'], description: 'Workflow of the e-commerce integration.' })
  @Regex(WORKFLOW_IRI_PATTERN)
  @Column('text', { nullable: true })
  externalSourceIntegration: string | null;

  @ApiProperty({ writable: ['post'], description: 'Id of the variant in the e-commerce store.' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  externalSourceSyncId: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
