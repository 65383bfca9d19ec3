import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter, OrderFilter, RangeFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { GreaterThanOrEqual, MaxLength, NotBlank } from '../hydra/validation/constraints';
import { OrderItem } from '../order-items/order-item.entity';
import { Shipment } from '../shipments/shipment.entity';
import { Workflow } from '../workflows/workflow.entity';
import { Workspace } from '../workspaces/workspace.entity';

const SHIPMENT_ROUTES = (prefix: string, params: Record<string, string>) => ({
  path: `${prefix}/shipments/:shipments/shipment_items`,
  params: { ...params, shipments: 'shipment' },
});
const ORDER_ITEM_ROUTES = (prefix: string, params: Record<string, string>) => ({
  path: `${prefix}/orders/:orders/items/:items/shipment_items`,
  params: { ...params, orders: 'orderItem.order', items: 'orderItem' },
});

/**
 * How many of one order item travel in one shipment. The quantity never
 * exceeds what is left to fulfil of the order item (checked under a row lock
 * of the order item, so concurrent requests cannot together exceed it).
 */
@ApiResource({
  path: '/shipment_items',
  nested: [
    { path: '/shipments/:id/shipment_items', params: { id: 'shipment' } },
    { path: '/order_items/:id/shipment_items', params: { id: 'orderItem' } },
    {
      path: '/orders/:id/items/:items/shipment_items',
      params: { id: 'orderItem.order', items: 'orderItem' },
    },
    SHIPMENT_ROUTES('/workspaces/:id', { id: 'workspace' }),
    ORDER_ITEM_ROUTES('/workspaces/:id', { id: 'workspace' }),
    SHIPMENT_ROUTES('/teams/:id/workspaces/:workspaces', {
      id: 'workspace.team',
      workspaces: 'workspace',
    }),
    ORDER_ITEM_ROUTES('/teams/:id/workspaces/:workspaces', {
      id: 'workspace.team',
      workspaces: 'workspace',
    }),
  ],
  tenancy: { workspace: 'workspace' },
  // A shipment's items read in the order they were packed.
  defaultOrder: { createdAt: 'ASC' },
  description: 'The quantity of an order item carried by a shipment.',
})
@ApiFilter(
  new ExactFilter([
    'id',
    'shipment.id',
    ['shipment.trackingNumber', { array: false }],
    'orderItem.id',
    'orderItem.order.id',
    'workspace.id',
  ]),
  new OrderFilter(['id', 'qty']),
  new ExactFilter(['qty']),
  new RangeFilter(['qty']),
)
@Entity('shipment_item')
export class ShipmentItem {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** An IRI, or on POST an object with the fields of a shipment POST (created with it). */
  @ApiProperty({ writable: ['post'], acceptObjectOn: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Shipment, { onDelete: 'CASCADE', nullable: false })
  shipment: Shipment;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @ManyToOne(() => OrderItem, { onDelete: 'CASCADE', nullable: false })
  orderItem: OrderItem;

  /** The shipment's workspace, denormalised so tenancy is one indexed equality. */
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: 1 })
  @GreaterThanOrEqual(0)
  @Column('int', { default: 0 })
  qty: number;

  @ApiProperty({ writable: ['post'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  externalSourceSyncId: string | null;

  /** A workflow of the shipment's workspace. */
  @ApiProperty({ writable: ['post'], nullable: true })
  @ManyToOne(() => Workflow, { nullable: true, onDelete: 'SET NULL' })
  externalSourceIntegration: Workflow | null;

  /** A workflow of the shipment's workspace. */
  @ApiProperty({ writable: ['post'], nullable: true })
  @ManyToOne(() => Workflow, { nullable: true, onDelete: 'SET NULL' })
  fulfillmentIntegration: Workflow | null;

  @ApiProperty({ writable: ['post'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  fulfillmentSyncId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
