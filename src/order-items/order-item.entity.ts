import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { GreaterThanOrEqual, MaxLength, NotBlank, Regex } from '../hydra/validation/constraints';
import { Order } from '../orders/order.entity';
import { orderSql } from '../orders/order-store';
import { ProductVariant } from '../products/product-variant.entity';
import { Product, WEB_URL } from '../products/product.entity';
import { WORKFLOW_IRI_PATTERN } from '../shipments/shipment.entity';
import type { ShipmentItem } from '../shipment-items/shipment-item.entity';
import { shipmentItemSql } from '../shipment-items/shipment-item-store';
import { Workspace } from '../workspaces/workspace.entity';

/**
 * A line of an order. `fulfilledQty` is the sum of its shipment items'
 * quantities and `rowTotal` is qty x price in exact decimal arithmetic; both
 * are computed by the database when read.
 */
@ApiResource({
  path: '/order_items',
  nested: [{ path: '/orders/:id/items', params: { id: 'order' } }],
  tenancy: { workspace: 'workspace' },
  // An order's lines read in the order they were added.
  defaultOrder: { createdAt: 'ASC' },
  description: 'A product line of an order.',
})
// Store integrations find the item they synced by its id in the store; a console lists one
// workspace's items with workspace.id (the column tenancy already indexes).
@ApiFilter(
  new ExactFilter([
    'id',
    ['externalSourceSyncId', { array: false }],
    ['externalSourceIntegration', { array: false }],
    'workspace.id',
  ]),
)
@Entity('order_item')
export class OrderItem {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Order, { onDelete: 'CASCADE', nullable: false })
  order: Order;

  /** The order's workspace, denormalised so tenancy is one indexed equality. */
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ writable: ['post', 'put'], example: 'Black Leather Jacket' })
  @MaxLength(1000)
  @Column('text', { nullable: true })
  productName: string | null;

  @ApiProperty({ writable: ['post', 'put'], example: 'JACKET-BLACK-LEATHER' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  productSku: string | null;

  /** OPTION_CODE => OPTION_VALUE, e.g. {"size": "L", "color": "black"}. */
  @ApiProperty({ writable: ['post', 'put'], type: 'object' })
  @Column('jsonb', { default: () => "'{}'::jsonb" })
  productOptions: Record<string, string>;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: 10 })
  @GreaterThanOrEqual(0)
  @Column('int', { default: 0 })
  qty: number;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: '19.99' })
  @Column('numeric', { default: 0 })
  price: string;

  @ApiProperty({ sql: '({a}.qty * {a}.price)', type: 'decimal', example: '199.90' })
  rowTotal?: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  externalProductId: string | null;

  @ApiProperty({ writable: ['post'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  externalSourceSyncId: string | null;

  @ApiProperty({ writable: ['post'] })
  @Regex(WORKFLOW_IRI_PATTERN)
  @Column('text', { nullable: true })
  externalSourceIntegration: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(2048)
  @Regex(/^https?:\/\/\S+$/i)
  @Column('text', { nullable: true })
  imageUrl: string | null;

  /** A product of the order's team (the catalogue is per team). */
  @ApiProperty({ writable: ['post'], nullable: true })
  @ManyToOne(() => Product, { nullable: true, onDelete: 'SET NULL' })
  product: Product | null;

  /** A variant of the order's team. */
  @ApiProperty({ writable: ['post'], nullable: true })
  @ManyToOne(() => ProductVariant, { nullable: true, onDelete: 'SET NULL' })
  productVariant: ProductVariant | null;

  /** The product's page in the store. */
  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(2048)
  @Regex(WEB_URL)
  @Column('text', { nullable: true })
  externalProductLink: string | null;

  @ApiProperty({
    sql: shipmentItemSql.shippedQuantity('{a}.id'),
    type: 'integer',
    example: 5,
  })
  fulfilledQty?: number;

  @ApiProperty({ sql: orderSql.currency('{a}.order_id') })
  currency?: string;

  @OneToMany('ShipmentItem', (item: ShipmentItem) => item.orderItem)
  shipmentItems: ShipmentItem[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
