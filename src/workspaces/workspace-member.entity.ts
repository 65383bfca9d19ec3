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
    sql: "EXISTS (SELECT 1 FROM workspace w JOIN team_member m ON m.team_id = w.team_id WHERE w.id = {a}.workspace_id AND m.member_id = {a}.user_id AND m.role IN ('owner','admin'))",
    type: 'boolean',
  })
  teamAdmin?: boolean;

  @ApiProperty({
    sql: "(SELECT NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') FROM \"user\" u WHERE u.id = {a}.user_id)",
  })
  memberName?: string | null;

  @ApiProperty({ sql: '(SELECT u.email::text FROM "user" u WHERE u.id = {a}.user_id)' })
  memberEmail?: string | null;

  @ApiProperty({
    sql: '(SELECT u.last_logged_in_at FROM "user" u WHERE u.id = {a}.user_id)',
    type: 'datetime',
  })
  memberLastLoggedIn?: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
