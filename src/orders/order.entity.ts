import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ValidateNested } from 'class-validator';
import { Address } from '../addresses/address';
import {
  DateFilter,
  EmptyFilter,
  ExactFilter,
  JsonKeyFilter,
  OrderFilter,
  RangeFilter,
} from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource, workspaceRoutes } from '../hydra/metadata/decorators';
import { Choice, Email, MaxLength, NotBlank, Regex } from '../hydra/validation/constraints';
import type { OrderItem } from '../order-items/order-item.entity';
import { PhoneNumber } from '../shipments/contact-rules';
import { WORKFLOW_IRI_PATTERN } from '../shipments/shipment.entity';
import type { Shipment } from '../shipments/shipment.entity';
import { Status } from '../statuses/status.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { FULFILLMENT_STATUSES } from './fulfillment-status';

export const ORDER_TYPES = ['customer', 'vendor'] as const;

const ADDRESS_FIELDS = [
  'addressLine1',
  'addressLine2',
  'city',
  'company',
  'countryIso2',
  'firstName',
  'lastName',
  'postcode',
  'state',
];
const BOTH_ADDRESSES = (fields: string[]) =>
  ['shippingAddress', 'billingAddress'].flatMap((a) => fields.map((f) => `${a}.${f}`));

/**
 * A customer (or vendor) order of a workspace. `fulfillmentStatus` and
 * `shipmentsWithoutTrackingCount` are stored so they filter and sort through
 * indexes; the services recompute them in the transaction of every change
 * to items, shipment items, shipments or their links (order-aggregates.ts).
 */
@ApiResource({
  path: '/orders',
  nested: workspaceRoutes('orders'),
  tenancy: { workspace: 'workspace' },
  uniqueConstraints: {
    uq_order_workspace_order_number: {
      property: 'orderNumber',
      message: 'This order number is already used by another order of the workspace.',
    },
  },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A purchase order whose items are shipped in shipments.',
})
@ApiFilter(new JsonKeyFilter('customFields'))
@ApiFilter(
  new OrderFilter([
    'id',
    'orderNumber',
    'email',
    'phoneNumber',
    'orderStatus.code',
    'subtotal',
    'total',
    'createdAt',
    'updatedAt',
    'fulfillmentStatus',
    'shipmentsWithoutTrackingCount',
    ...BOTH_ADDRESSES(ADDRESS_FIELDS),
  ]),
  new DateFilter(['createdAt', 'updatedAt']),
  new ExactFilter([
    'id',
    ['orderNumber', { array: false }],
    ['email', { array: false }],
    ['phoneNumber', { array: false }],
    'orderStatus.code',
    'orderType',
    ['externalSourceSyncId', { array: false }],
    ['externalSourceIntegration', { array: false }],
    'fulfillmentStatus',
    ['currency', { array: false }],
    'subtotal',
    'total',
    'shipmentsWithoutTrackingCount',
    ...BOTH_ADDRESSES(ADDRESS_FIELDS).map((p): [string, { array: boolean }] => [
      p,
      { array: p.endsWith('.countryIso2') },
    ]),
  ]),
  new RangeFilter(['subtotal', 'total', 'shipmentsWithoutTrackingCount']),
  new EmptyFilter([
    'orderNumber',
    'currency',
    'email',
    'phoneNumber',
    ...BOTH_ADDRESSES(ADDRESS_FIELDS.filter((f) => f !== 'countryIso2')),
  ]),
)
@Entity('order')
export class Order {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  /** Unique per workspace: shipments name their orders by it (`orderNumbers`). */
  @ApiProperty({ writable: ['post'], example: 'ON1' })
  @NotBlank({ on: ['post'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  orderNumber: string | null;

  @ApiProperty({ writable: ['post'] })
  @Regex(WORKFLOW_IRI_PATTERN)
  @Column('text', { nullable: true })
  externalSourceIntegration: string | null;

  @ApiProperty({ writable: ['post'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  externalSourceSyncId: string | null;

  @ApiProperty({ writable: ['post'] })
  @MaxLength(2048)
  @Regex(/^https?:\/\/\S+$/i)
  @Column('text', { nullable: true })
  externalSourceUrl: string | null;

  /** Decimal strings, stored as numeric: never through floating point. */
  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: '199.90' })
  @Column('numeric', { default: 0 })
  subtotal: string;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: '199.90' })
  @Column('numeric', { default: 0 })
  total: string;

  @ApiProperty({ writable: ['post', 'put'], nullable: true, example: 'EUR' })
  @Column('text', { default: 'USD' })
  currency: string;

  /** `{code, title}` on write: the workspace's order status with that code, created if new. */
  @ApiProperty({
    writable: ['post', 'put'],
    embed: true,
    embedProperties: ['id', 'code', 'title'],
    nullable: true,
  })
  @ManyToOne(() => Status, { onDelete: 'RESTRICT', nullable: true })
  orderStatus: Status | null;

  /** Optional on POST: the reference's default is `customer` (store plugins never send it). */
  @ApiProperty({ writable: ['post'], example: 'customer' })
  @Choice(ORDER_TYPES)
  @Column('text', { default: 'customer' })
  orderType: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @Email()
  @MaxLength(1000)
  @Column('text', { nullable: true })
  email: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @PhoneNumber(
    (order: Order) => order.shippingAddress?.countryIso2 ?? order.billingAddress?.countryIso2,
  )
  @Column('text', { nullable: true })
  phoneNumber: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** Values of the workspace's custom fields for orders (`/fields?entity=orders`), by code. */
  @ApiProperty({ writable: ['post', 'put'], type: 'object', validatedBy: 'customFields' })
  @Column('jsonb', { default: () => "'{}'::jsonb" })
  customFields: Record<string, unknown>;

  /** Not in /orders pages unless `groups[]=getOrder` (the reference's `Order-Getxc`). */
  @ApiProperty({ writable: ['post', 'put'], itemOnly: true })
  @ManyToMany('Shipment', (shipment: Shipment) => shipment.orders)
  shipments: Shipment[];

  @ApiProperty({ writable: ['post', 'put'] })
  @ValidateNested({ groups: ['post', 'put'] })
  @Column(() => Address)
  shippingAddress: Address;

  @ApiProperty({ writable: ['post', 'put'] })
  @ValidateNested({ groups: ['post', 'put'] })
  @Column(() => Address)
  billingAddress: Address;

  @ApiProperty({ example: 'partial' })
  @Column('text', { default: 'not_fulfilled' })
  fulfillmentStatus: (typeof FULFILLMENT_STATUSES)[number];

  @ApiProperty()
  @Column('int', { default: 0 })
  shipmentsWithoutTrackingCount: number;

  @ApiProperty()
  @OneToMany('OrderItem', (item: OrderItem) => item.order)
  items: OrderItem[];

  /**
   * The reference's `readonly`: true when a store integration brought the order in, so the
   * store owns it and clients should edit it there.
   */
  @ApiProperty({ sql: '({a}.external_source_integration IS NOT NULL)', type: 'boolean' })
  readonly?: boolean;
}
