import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource, workspaceRoutes } from '../hydra/metadata/decorators';
import { Choice, MaxLength, NotBlank } from '../hydra/validation/constraints';
import { Workspace } from '../workspaces/workspace.entity';

/** The records a workspace status can describe. */
export const STATUS_ENTITIES = ['shipments', 'orders'] as const;
export type StatusEntity = (typeof STATUS_ENTITIES)[number];

/**
 * A status a workspace defines for its shipments (`shipmentStatus`) or its
 * orders (`orderStatus`): a code unique per workspace and entity, and a title.
 */
@ApiResource({
  path: '/statuses',
  nested: workspaceRoutes('statuses'),
  tenancy: { workspace: 'workspace' },
  uniqueConstraints: { uq_status_workspace_entity_code: { property: 'code' } },
  // Statuses read like a pipeline: in the order they were defined.
  defaultOrder: { createdAt: 'ASC' },
  description: 'A workspace-defined status of shipments or orders.',
})
@ApiFilter(
  new ExactFilter([
    ['entity', { array: false }],
    ['code', { array: false }],
    ['title', { array: false }],
  ]),
  new OrderFilter(['entity', 'code', 'title']),
)
@Entity('status')
export class Status {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty({ writable: ['post'], example: 'shipments' })
  @NotBlank({ on: ['post'] })
  @Choice(STATUS_ENTITIES)
  @Column('text')
  entity: StatusEntity;

  @ApiProperty({ writable: ['post', 'put'], example: 'new' })
  @NotBlank()
  @MaxLength(255)
  @Column('text')
  code: string;

  @ApiProperty({ writable: ['post', 'put'], example: 'New' })
  @MaxLength(255)
  @Column('text', { nullable: true })
  title: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
