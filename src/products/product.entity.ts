import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { DateFilter, ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { MaxLength, NotBlank, Regex } from '../hydra/validation/constraints';
import { WORKFLOW_IRI_PATTERN } from '../shipments/shipment.entity';
import { Team } from '../teams/team.entity';
import type { ProductVariant } from './product-variant.entity';

/** http(s) URLs only: they are shown as links and images in stores and tracking pages. */
export const WEB_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/**
 * A product of a team's catalogue (the reference keeps products per team, so every workspace
 * of the team shares them). The SKU is unique within the team when given: feeds upsert by it.
 */
@ApiResource({
  path: '/products',
  tenancy: { team: 'team' },
  uniqueConstraints: {
    uq_product_team_sku: {
      property: 'sku',
      message: 'This SKU is already used by another product of the team.',
    },
  },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A product sold in the stores of a team.',
})
@ApiFilter(
  new OrderFilter(['id', 'name', 'sku', 'createdAt', 'updatedAt']),
  new DateFilter(['createdAt', 'updatedAt']),
  new ExactFilter([
    'id',
    ['name', { array: false }],
    'sku',
    'team',
    // Store integrations find the product they synced by its id in the store.
    ['externalSourceSyncId', { array: false }],
    ['externalSourceIntegration', { array: false }],
  ]),
)
@Entity('product')
export class Product {
  @ApiProperty({ description: 'A unique version 4 UUID.' })
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'], description: 'The team the product belongs to.' })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Team, { onDelete: 'CASCADE', nullable: false })
  team: Team;

  @ApiProperty({ writable: ['post', 'put'], example: 'Jacket' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  name: string | null;

  @ApiProperty({ writable: ['post', 'put'], example: 'JACKET-01' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  sku: string | null;

  @ApiProperty({ writable: ['post', 'put'], example: 'https://my-store.example/products/jacket' })
  @MaxLength(2048)
  @Regex(WEB_URL, { message: 'This value is not a valid URL.' })
  @Column('text', { nullable: true })
  originUrl: string | null;

  @ApiProperty({ writable: ['post', 'put'], example: 'https://my-store.example/media/jacket.jpg' })
  @MaxLength(2048)
  @Regex(WEB_URL, { message: 'This value is not a valid URL.' })
  @Column('text', { nullable: true })
  imageUrl: string | null;

  @ApiProperty({ writable: ['post'], description: 'Workflow of the e-commerce integration.' })
  @Regex(WORKFLOW_IRI_PATTERN)
  @Column('text', { nullable: true })
  externalSourceIntegration: string | null;

  @ApiProperty({ writable: ['post'], description: 'Id of the product in the e-commerce store.' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  externalSourceSyncId: string | null;

  @ApiProperty({ description: 'The variants of the product.' })
  @OneToMany('ProductVariant', (variant: ProductVariant) => variant.product)
  productVariants: ProductVariant[];

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
