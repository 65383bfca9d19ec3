import {
  Column,
  CreateDateColumn,
  Entity,
  JoinTable,
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
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Email, MaxLength, NotBlank, Regex } from '../hydra/validation/constraints';
import type { Order } from '../orders/order.entity';
import type { ShipmentItem } from '../shipment-items/shipment-item.entity';
import { Status } from '../statuses/status.entity';
import { Workflow } from '../workflows/workflow.entity';
import { workflowSql } from '../workflows/workflow-store';
import { Workspace } from '../workspaces/workspace.entity';
import { PhoneNumber } from './contact-rules';
import { DeliveryPredictionOutput } from './delivery-prediction.output';

export const TRACKING_NUMBER_PATTERN = /^\s*[a-zA-Z\d]+\s*$/;
/**
 * A workflow IRI held as text (orders, order items, products); shipments and shipment items
 * reference workflows as relations.
 */
export const WORKFLOW_IRI_PATTERN =
  /^\/workflows\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ADDRESS_FIELDS = [
  'address.addressLine1',
  'address.addressLine2',
  'address.city',
  'address.company',
  'address.countryIso2',
  'address.firstName',
  'address.lastName',
  'address.postcode',
  'address.state',
];

/**
 * One tracking number of one workspace. The tracking fields (trackingStatus,
 * daysInTransit, carriers, countries, dates, review) are read-only: the
 * tracking engine writes them, never a request body.
 */
/**
 * The reference's wording: the WooCommerce plugin looks for it to offer merging the two
 * shipments (POST /shipments/merge {shipmentId, trackingNumber}).
 */
export const DUPLICATE_TRACKING_NUMBER =
  'It seems that you are trying to add the same tracking number to two different shipments.';

@ApiResource({
  path: '/shipments',
  nested: [
    { path: '/workspaces/:id/shipments', params: { id: 'workspace' } },
    {
      path: '/teams/:id/workspaces/:workspaces/shipments',
      params: { id: 'workspace.team', workspaces: 'workspace' },
    },
  ],
  tenancy: { workspace: 'workspace' },
  uniqueConstraints: {
    uq_shipment_workspace_tracking_number: {
      property: 'trackingNumber',
      message: DUPLICATE_TRACKING_NUMBER,
    },
  },
  defaultOrder: { createdAt: 'DESC' },
  // hydra:totalItems of the whole list and of the status / carrier filters without scanning
  // (migration MaintainedCounts).
  counts: ['trackingStatus', 'originCarrier', 'attention'],
  description: 'A parcel tracked by its tracking number.',
})
@ApiFilter(new JsonKeyFilter('customFields'))
@ApiFilter(
  new OrderFilter([
    'id',
    'trackingNumber',
    'trackingStatus',
    'shipmentStatus.code',
    'originCarrier',
    'destinationCarrier',
    'createdAt',
    'updatedAt',
    'shippedAt',
    'lastStatusUpdate',
    'expectedDeliveryDate',
    'originCountry',
    'destinationCountry',
    'originCountryIso2',
    'destinationCountryIso2',
    'email',
    'phoneNumber',
    'daysInTransit',
    'reviewTotalScore',
    'daysInIdle',
    'orderNumbers',
    ...ADDRESS_FIELDS,
  ]),
  new ExactFilter([
    'orderNumbers',
    'id',
    ['trackingNumber', { array: false }],
    'trackingStatus',
    'shipmentStatus.code',
    'originCarrier',
    'destinationCarrier',
    ['originCountry', { array: false }],
    'originCountryIso2',
    ['destinationCountry', { array: false }],
    'destinationCountryIso2',
    ['email', { array: false }],
    ['phoneNumber', { array: false }],
    ...ADDRESS_FIELDS.map((f): [string, { array: boolean }] => [
      f,
      { array: f === 'address.countryIso2' },
    ]),
    'daysInTransit',
    'daysInIdle',
    'attention',
    // Store integrations find the shipment they synced by its id in the store.
    ['externalSourceSyncId', { array: false }],
    ['externalSourceIntegration', { array: false }],
  ]),
  new DateFilter([
    'createdAt',
    'updatedAt',
    'shippedAt',
    'lastStatusUpdate',
    'expectedDeliveryDate',
  ]),
  new RangeFilter(['daysInTransit', 'reviewTotalScore', 'daysInIdle']),
  new EmptyFilter([
    'orderNumbers',
    'trackingNumber',
    'email',
    'phoneNumber',
    ...ADDRESS_FIELDS.filter((f) => f !== 'address.countryIso2'),
  ]),
)
@Entity('shipment')
export class Shipment {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Trimmed before storing; unique per workspace. */
  @ApiProperty({ writable: ['post', 'put'], example: 'TM102123456789TM' })
  @Regex(TRACKING_NUMBER_PATTERN)
  @MaxLength(100)
  @Column('text', { nullable: true })
  trackingNumber: string | null;

  @ApiProperty({ example: 'in_transit' })
  @Column('text', { nullable: true })
  trackingStatus: string | null;

  @ApiProperty({ writable: ['post', 'put'], items: 'string' })
  @Column('text', { array: true, default: () => "'{}'" })
  orderNumbers: string[];

  @ApiProperty({ writable: ['post', 'put'] })
  @Email()
  @MaxLength(1000)
  @Column('text', { nullable: true })
  email: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @PhoneNumber((shipment: Shipment) => shipment.address?.countryIso2)
  @Column('text', { nullable: true })
  phoneNumber: string | null;

  @ApiProperty()
  @Column('int', { nullable: true })
  daysInTransit: number | null;

  @ApiProperty()
  @Column('int', { nullable: true })
  daysInIdle: number | null;

  /**
   * Identified from the tracking number when not given. It is set once: a
   * PUT leaves a known carrier alone unless it changes the tracking number
   * (then the carrier is identified again, from the body or the number).
   */
  @ApiProperty({ writable: ['post', 'put'], example: 'ups' })
  @Column('text', { nullable: true })
  originCarrier: string | null;

  @ApiProperty()
  @Column('text', { nullable: true })
  destinationCarrier: string | null;

  @ApiProperty()
  @Column('text', { nullable: true })
  originCountry: string | null;

  @ApiProperty()
  @Column('text', { nullable: true })
  destinationCountry: string | null;

  @ApiProperty()
  @Column('text', { nullable: true })
  originCountryIso2: string | null;

  @ApiProperty()
  @Column('text', { nullable: true })
  destinationCountryIso2: string | null;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  shippedAt: Date | null;

  /** The carrier's own date when it gave one, else the window's `likely` (deliveryPrediction.basis). */
  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  expectedDeliveryDate: Date | null;

  /** The delivery window of a parcel on its way (src/predictions); null once final. */
  @ApiProperty({ type: 'object', of: () => DeliveryPredictionOutput, nullable: true })
  @Column('jsonb', { nullable: true })
  deliveryPrediction: Record<string, unknown> | null;

  /** Why the parcel needs attention, most urgent reason (src/predictions, "Attention"). */
  @ApiProperty({
    nullable: true,
    example: 'stalled',
    description: 'exception, stalled, late or waiting (the most urgent that applies).',
  })
  @Column('text', { nullable: true })
  attention: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** Values of the workspace's custom fields for shipments (`/fields?entity=shipments`), by code. */
  @ApiProperty({ writable: ['post', 'put'], type: 'object', validatedBy: 'customFields' })
  @Column('jsonb', { default: () => "'{}'::jsonb" })
  customFields: Record<string, unknown>;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  lastStatusUpdate: Date | null;

  @ApiProperty({
    description:
      'Why the last tracking check failed (provider down, timeout, rejected credentials); ' +
      'null once a check succeeds. What the shipment already had is kept, and it is retried.',
  })
  @Column('text', { nullable: true })
  trackingError: string | null;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  /** IRI of the customer's review; reviews are written by the tracking pages. */
  @ApiProperty()
  @Column('text', { nullable: true })
  review: string | null;

  @ApiProperty()
  @Column('double precision', { nullable: true })
  reviewTotalScore: number | null;

  /** Linked orders; kept consistent with `orderNumbers` (shipment-orders.ts). */
  @ApiProperty({ writable: ['post', 'put'] })
  @ManyToMany('Order', (order: Order) => order.shipments)
  @JoinTable({
    name: 'shipment_order',
    joinColumn: { name: 'shipment_id' },
    inverseJoinColumn: { name: 'order_id' },
  })
  orders: Order[];

  /**
   * On PUT the list replaces the shipment's items: items left out are deleted. Elements may
   * be objects `{orderItem, qty}` (created with the shipment) or `{@id, qty, ...}` (changed),
   * in the write's transaction.
   */
  @ApiProperty({ writable: ['post', 'put'], acceptObjectOn: ['post', 'put'] })
  @OneToMany('ShipmentItem', (item: ShipmentItem) => item.shipment)
  shipmentItems: ShipmentItem[];

  /** The store integration (workflow of the same workspace) the shipment came from. */
  @ApiProperty({ writable: ['post'], nullable: true })
  @ManyToOne(() => Workflow, { nullable: true, onDelete: 'SET NULL' })
  externalSourceIntegration: Workflow | null;

  @ApiProperty({ writable: ['post'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  externalSourceSyncId: string | null;

  /** The fulfilment integration (workflow of the same workspace) that ships it. */
  @ApiProperty({ writable: ['post'], nullable: true })
  @ManyToOne(() => Workflow, { nullable: true, onDelete: 'SET NULL' })
  fulfillmentIntegration: Workflow | null;

  @ApiProperty({ writable: ['post'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  fulfillmentSyncId: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @ValidateNested({ groups: ['post', 'put'] })
  @Column(() => Address)
  address: Address;

  /** `{code, title}` on write (the workspace's shipment status with that code, created if new). */
  @ApiProperty({
    writable: ['post', 'put'],
    embed: true,
    embedProperties: ['id', 'code', 'title'],
    nullable: true,
  })
  @ManyToOne(() => Status, { onDelete: 'RESTRICT', nullable: true })
  shipmentStatus: Status | null;

  /** The type of the externalSourceIntegration workflow (`shopify`, ...). */
  @ApiProperty({
    sql: workflowSql.typeOf('{a}.external_source_integration_id'),
    type: 'string',
    nullable: true,
  })
  externalSourceIntegrationType?: string | null;
}
