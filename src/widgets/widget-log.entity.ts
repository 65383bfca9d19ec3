import { Column, CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DateFilter, ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Workspace } from '../workspaces/workspace.entity';
import { Widget } from './widget.entity';

/**
 * One event of a widget: a visitor's lookup through it (what was asked, how many shipments
 * were found, or why it was refused). Written by WidgetLookupService; read-only in the API.
 */
@ApiResource({
  path: '/widget_logs',
  shortName: 'WidgetLog',
  operations: ['list', 'get'],
  nested: [
    { path: '/widgets/:id/logs', params: { id: 'widget' } },
    {
      path: '/workspaces/:id/widgets/:widgets/logs',
      params: { id: 'workspace', widgets: 'widget' },
    },
    {
      path: '/teams/:id/workspaces/:workspaces/widgets/:widgets/logs',
      params: { id: 'workspace.team', workspaces: 'workspace', widgets: 'widget' },
    },
  ],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'An event of a widget: a lookup by a store visitor.',
})
@ApiFilter(
  new ExactFilter([['info', { array: false }]]),
  new OrderFilter(['createdAt']),
  new DateFilter(['createdAt']),
)
@Entity('widget_log')
export class WidgetLog {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty()
  @ManyToOne(() => Widget, { onDelete: 'CASCADE', nullable: false })
  widget: Widget;

  /** The widget's workspace, copied on write (tenancy is one indexed comparison). */
  @ApiProperty()
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ example: 'Lookup by tracking number "TM102X1TM": 1 shipment found.' })
  @Column('text', { nullable: true })
  info: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
