import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { BooleanAliasFilter, TagFilter } from '../credentials/credential-filters';
import { Credentials } from '../credentials/credentials.entity';
import { BooleanFilter, ExactFilter, ExistsFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource, workspaceRoutes } from '../hydra/metadata/decorators';
import { Choice, MaxLength, NotBlank } from '../hydra/validation/constraints';
import { Workspace } from '../workspaces/workspace.entity';
import {
  WEBHOOK_AUTH_TYPES,
  WEBHOOK_ENTITIES,
  WEBHOOK_EVENTS,
  WORKFLOW_PERIODS,
  WORKFLOW_TYPE_NAMES,
} from './workflow-types';

/**
 * A workflow of a workspace: a webhook that receives the workspace's events, or an integration
 * with a store or fulfilment system (see workflow-types.ts). `credentials` is an IRI on read and
 * PUT and may be an object `{type, team, parameters, secrets}` on POST (creating them);
 * `integration` is another workflow, embedded on read, an object (created) or IRI on write.
 * PUT replaces the writable state: what the body leaves out goes back to its POST default
 * (title, type, workspace and period are then missing: 422, as on POST).
 */
@ApiResource({
  path: '/workflows',
  nested: workspaceRoutes('workflows'),
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A workflow (webhook or integration) of a workspace.',
  replaceOnPut: true,
})
@ApiFilter(
  new ExactFilter(['type', 'period', ['title', { array: false }]]),
  new OrderFilter(['createdAt']),
  new TagFilter(),
  new ExistsFilter(['integration']),
  new BooleanFilter(['firstTimeSetupPassed']),
  new BooleanAliasFilter('first_time_setup_required', 'firstTimeSetupRequired', { type: 'string' }),
)
@Entity('workflow')
export class Workflow {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post', 'put'], example: 'Status changes to our ERP' })
  @NotBlank()
  @MaxLength(255)
  @Column('text', { nullable: true })
  title: string | null;

  @ApiProperty({ writable: ['post', 'put'], example: 'webhook' })
  @NotBlank()
  @Choice(WORKFLOW_TYPE_NAMES)
  @Column('text')
  type: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  /**
   * The secrets live in the team's credentials record, never on the workflow: a PUT that leaves
   * `credentials` out unlinks them like any other omitted attribute (the record itself stays,
   * reusable by IRI), and an enabled webhook without credentials is a 422, so a client that
   * forgets them is told rather than silently losing its deliveries.
   */
  @ApiProperty({ writable: ['post', 'put'], acceptObjectOn: ['post'], nullable: true })
  @ManyToOne(() => Credentials, { nullable: true, onDelete: 'SET NULL' })
  credentials: Credentials | null;

  @ApiProperty({
    writable: ['post', 'put'],
    type: 'array',
    items: 'string',
    description: 'Addresses told when a delivery of this workflow fails for good.',
  })
  @Column('text', { array: true, default: () => "'{}'" })
  notificationEmails: string[];

  @ApiProperty({ writable: ['post', 'put'], example: true })
  @Column('boolean', { default: true })
  enabled: boolean;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  lastRunDate: Date | null;

  @ApiProperty({
    writable: ['post', 'put'],
    example: 'immediately',
    description: 'immediately, hourly, daily or manual; applies only to outgoing workflows',
  })
  @NotBlank()
  @Choice(WORKFLOW_PERIODS)
  @Column('text')
  period: string;

  @ApiProperty({
    writable: ['post', 'put'],
    embed: true,
    acceptObjectOn: ['post', 'put'],
    nullable: true,
  })
  @ManyToOne(() => Workflow, { nullable: true, onDelete: 'SET NULL' })
  integration: Workflow | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('boolean', { default: false })
  firstTimeSetupPassed: boolean;

  /**
   * The reference's webhook form (src/workflows/README.md): deliveries go to `url`, with HTTP
   * Basic (`username`, `password`) or Bearer (`password` is the token) authentication, in the
   * reference's body. The password is the receiver's credential, and like the reference the
   * API shows it to the workspace's members (its store plugins compare it with what they sent).
   */
  @ApiProperty({ writable: ['post', 'put'], example: 'https://shop.example/trackmage/webhook' })
  @MaxLength(2048)
  @Column('text', { nullable: true })
  url: string | null;

  @ApiProperty({ writable: ['post', 'put'], example: 'basic', description: 'basic or bearer' })
  @Choice(WEBHOOK_AUTH_TYPES)
  @Column('text', { nullable: true })
  authType: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  username: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(1000)
  @Column('text', { nullable: true })
  password: string | null;

  /** Requests in flight at once to `url` (1 to 10); a number or a numeric string. */
  @ApiProperty({ writable: ['post', 'put'], type: 'decimal', example: '1' })
  @Column('numeric', { default: 1 })
  concurrency: string;

  /** Only this collection's changes (shipments, shipment_items, orders, order_items); all when null. */
  @ApiProperty({ writable: ['post', 'put'], example: 'shipments' })
  @Choice(WEBHOOK_ENTITIES)
  @Column('text', { nullable: true })
  entity: string | null;

  /** Only these changes (create, update, delete); all when null. */
  @ApiProperty({ writable: ['post', 'put'], example: 'update' })
  @Choice(WEBHOOK_EVENTS)
  @Column('text', { nullable: true })
  event: string | null;

  /** Only updates that change this property (e.g. trackingStatus); all when null. */
  @ApiProperty({ writable: ['post', 'put'], example: 'trackingStatus' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  field: string | null;

  @ApiProperty({ type: 'array', items: 'string' })
  @Column('text', { array: true, default: () => "'{}'" })
  tags: string[];

  @ApiProperty({ nullable: true })
  @Column('text', { nullable: true })
  integrationType: string | null;

  @ApiProperty({ description: 'Nothing happens on this side: the workflow has no executor.' })
  @Column('boolean', { default: false })
  passive: boolean;

  @ApiProperty({ description: 'The external system controls this integration.' })
  @Column('boolean', { default: false })
  remote: boolean;

  @ApiProperty()
  @Column('boolean', { default: false })
  firstTimeSetupRequired: boolean;

  @ApiProperty({
    sql: `EXISTS (SELECT 1 FROM workflow_run r WHERE r.workflow_id = {a}.id AND r.status = 'running')`,
    type: 'boolean',
    nullable: false,
  })
  runInProgress?: boolean;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
