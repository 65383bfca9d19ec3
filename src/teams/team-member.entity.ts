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
import { userPhotoSql } from '../users/user-photo';
import { Choice } from '../hydra/validation/constraints';
import { User } from '../users/user.entity';
import { userEmailOfSql, userLastLoggedInOfSql, userNameOfSql } from '../users/user-store';
import { TEAM_EMBEDDED_PROPERTIES, Team } from './team.entity';

export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

@ApiResource({
  path: '/team_members',
  // PUT, DELETE, POST (invitation) and resend_invite are custom: TeamMembersController.
  operations: ['list', 'get'],
  nested: [
    { path: '/teams/:id/team_members', params: { id: 'team' } },
    { path: '/users/:id/team_members', params: { id: 'member' } },
  ],
  tenancy: { team: 'team' },
  description: 'Membership of a user (or a pending invitation) in a team, with a role.',
  defaultOrder: { createdAt: 'ASC' },
})
@ApiFilter(new ExactFilter(['team.id', 'member.id']))
@Index(['team', 'member'], { unique: true, where: 'member_id IS NOT NULL' })
@Entity('team_member')
export class TeamMember {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The team as the reference embeds it: its counts and billing state included. */
  @ApiProperty({ embed: true, embedProperties: TEAM_EMBEDDED_PROPERTIES })
  @ManyToOne(() => Team, { onDelete: 'CASCADE', nullable: false })
  team: Team;

  @ApiProperty()
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: true })
  member: User | null;

  @ApiProperty()
  @Column('citext', { nullable: true })
  invitedEmail: string | null;

  @Choice(TEAM_ROLES)
  @Column('text', { default: 'member' })
  role: TeamRole;

  @ApiProperty({ sql: "{a}.role IN ('owner','admin')", type: 'boolean' })
  teamAdmin?: boolean;

  @ApiProperty({ sql: "{a}.role = 'owner'", type: 'boolean' })
  teamOwner?: boolean;

  @ApiProperty({ sql: userNameOfSql('{a}.member_id') })
  memberName?: string | null;

  @ApiProperty({ sql: userPhotoSql('{a}.member_id'), nullable: true })
  memberPhoto?: string | null;

  @ApiProperty({ sql: userEmailOfSql('{a}.member_id') })
  memberEmail?: string | null;

  @ApiProperty({ sql: userLastLoggedInOfSql('{a}.member_id'), type: 'datetime' })
  memberLastLoggedIn?: string | null;

  @ApiProperty({ sql: '(SELECT tm.name FROM team tm WHERE tm.id = {a}.team_id)' })
  teamName?: string;

  @ApiProperty({ sql: '{a}.team_id::text' })
  teamId?: string;

  @Column('text', { nullable: true, select: false })
  inviteTokenHash: string | null;

  @ApiProperty()
  @Column('timestamptz', { nullable: true })
  invitedAt: Date | null;

  /** Workspace access granted with the invitation, applied when it is accepted. */
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  invitedPermissions: Array<{ workspaceId: string; accessLevel: string }>;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
