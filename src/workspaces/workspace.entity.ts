import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import {
  GreaterThanOrEqual,
  LessThanOrEqual,
  MaxLength,
  NotBlank,
} from '../hydra/validation/constraints';
import { Media } from '../media/media.entity';
import { shipmentCountOfWorkspaceSql } from '../shipments/shipment-counts-sql';
import { Team } from '../teams/team.entity';
import { TrackingPage } from '../tracking-pages/tracking-page.entity';
import { widgetIrisOfWorkspaceSql } from '../widgets/widget-iris-sql';
import { workflowCountOfWorkspaceSql } from '../workflows/workflow-counts-sql';
import { EmailSettingsOutput } from './workspace.output';

@ApiResource({
  path: '/workspaces',
  nested: [{ path: '/teams/:id/workspaces', params: { id: 'team' } }],
  tenancy: { self: 'workspace' },
  // POST may create its team too (the service checks the team given); team admins delete.
  access: { post: 'user', delete: 'team:admin' },
  description: 'A shop or brand: holds shipments, orders, integrations and settings.',
})
@ApiFilter(new OrderFilter(['createdAt']))
@Index(['team', 'createdAt'])
@Entity('workspace')
export class Workspace {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** An IRI on read; on POST an object `{name}` creates the team too. */
  @ApiProperty({ writable: ['post'], acceptObjectOn: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Team, { onDelete: 'CASCADE', nullable: false })
  team: Team;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @MaxLength(255)
  @Column('text')
  title: string;

  /**
   * An IRI on read. On write an object creates (or, on PUT, updates) the workspace's default
   * tracking page; an IRI picks an existing page of this workspace; null unsets it.
   */
  @ApiProperty({ writable: ['post', 'put'], acceptObjectOn: ['post', 'put'] })
  @ManyToOne(() => TrackingPage, { nullable: true, onDelete: 'SET NULL' })
  defaultTrackingPage: TrackingPage | null;

  /** Counted through the (workspace_id, ...) indexes of shipment; index-only for small pages. */
  @ApiProperty({ sql: shipmentCountOfWorkspaceSql('{a}.id'), type: 'integer' })
  shipmentsCount?: number;

  @ApiProperty({ sql: workflowCountOfWorkspaceSql('{a}.id'), type: 'integer' })
  workflowsCount?: number;

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  workflowsOrder: string[];

  /** `{id, filePath}` on read; the IRI of an uploaded image (POST /media) or null on write. */
  @ApiProperty({ writable: ['post', 'put'], embed: true, nullable: true })
  @ManyToOne(() => Media, { nullable: true, onDelete: 'SET NULL' })
  logo: Media | null;

  /**
   * `{logo, signature, smtpCredentials}`: logo is stored as the `{id, filePath}` clients read
   * and written as a media IRI (see WorkspacesService.emailSettings).
   */
  @ApiProperty({ writable: ['post', 'put'], type: 'object', of: () => EmailSettingsOutput })
  @Column('jsonb', {
    default: () => `'{"logo": null, "signature": null, "smtpCredentials": null}'::jsonb`,
  })
  emailSettings: Record<string, unknown>;

  /** IRIs of the workspace's widgets, oldest first (served by ix_widget_workspace_created). */
  @ApiProperty({
    sql: widgetIrisOfWorkspaceSql('{a}.id'),
    type: 'array',
    items: 'string',
    nullable: false,
  })
  widgets?: string[];

  /**
   * Days at a pickup point or after a failed attempt before a parcel needs attention
   * (`waiting`, src/predictions); 3 leave most of a pickup point's week-long hold.
   */
  @ApiProperty({ writable: ['post', 'put'], example: 3 })
  @GreaterThanOrEqual(1)
  @LessThanOrEqual(60)
  @Column('int', { default: 3 })
  attentionWaitingDays: number;

  @ApiProperty()
  @Column('boolean', { default: false })
  scheduledForDelete: boolean;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
