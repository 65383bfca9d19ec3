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
import { MaxLength, NotBlank } from '../hydra/validation/constraints';
import { Team } from '../teams/team.entity';

@ApiResource({
  path: '/workspaces',
  nested: [{ path: '/teams/:id/workspaces', params: { id: 'team' } }],
  tenancy: { self: 'workspace' },
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

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  workflowsOrder: string[];

  @ApiProperty({ writable: ['post', 'put'], type: 'object' })
  @Column('jsonb', { default: () => "'{}'::jsonb" })
  emailSettings: Record<string, unknown>;

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
