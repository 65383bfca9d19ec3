import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { ExactFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Choice } from '../hydra/validation/constraints';
import { User } from '../users/user.entity';
import { userEmailOfSql, userLastLoggedInOfSql, userNameOfSql } from '../users/user-store';
import { administersWorkspaceSql } from './workspace-member-store';
import { Workspace } from './workspace.entity';

export const ACCESS_LEVELS = ['full', 'read'] as const;

/**
 * A user's access to one workspace of a team they belong to. Created by invitations and
 * POST /workspace_permissions_batch; rules in src/workspace-members/.
 */
@ApiResource({
  path: '/workspace_members',
  operations: ['list', 'get', 'put', 'delete'],
  nested: [{ path: '/workspaces/:id/workspace_members', params: { id: 'workspace' } }],
  tenancy: { workspace: 'workspace' },
  // Who may see a workspace is for the account holder to decide, not a third-party app.
  delegated: { write: false },
  defaultOrder: { createdAt: 'ASC' },
})
@ApiFilter(new ExactFilter(['workspace.id', 'user.id']))
@Index(['workspace', 'user'], { unique: true })
@Index(['user'])
@Entity('workspace_member')
export class WorkspaceMember {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ embed: true })
  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  @ApiProperty()
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  user: User;

  @ApiProperty({ writable: ['put'] })
  @Choice(ACCESS_LEVELS)
  @Column('text', { default: 'full' })
  accessLevel: string;

  @ApiProperty({ sql: '{a}.workspace_id::text' })
  workspaceId?: string;

  @ApiProperty({
    sql: administersWorkspaceSql('{a}.user_id', '{a}.workspace_id'),
    type: 'boolean',
  })
  teamAdmin?: boolean;

  @ApiProperty({ sql: userNameOfSql('{a}.user_id') })
  memberName?: string | null;

  @ApiProperty({ sql: userEmailOfSql('{a}.user_id') })
  memberEmail?: string | null;

  @ApiProperty({ sql: userLastLoggedInOfSql('{a}.user_id'), type: 'datetime' })
  memberLastLoggedIn?: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
