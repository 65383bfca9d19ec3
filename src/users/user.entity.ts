import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { MaxLength } from '../hydra/validation/constraints';
import { Media } from '../media/media.entity';
import { teamIrisOfUserSql } from '../teams/team-member-store';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-policy';

@ApiResource({
  path: '/users',
  // The collection answers the caller's own account: it gives Hydra clients the User class.
  operations: ['list', 'get', 'put'],
  tenancy: { self: 'user' },
  // A third-party application may read the profile, never change it (password, e-mail...).
  delegated: { put: false },
  // Read by UsersService (a password is never stored as given nor read back).
  writeOnly: {
    put: {
      plainPassword: {
        type: 'string',
        nullable: true,
        minLength: MIN_PASSWORD_LENGTH,
        maxLength: MAX_PASSWORD_LENGTH,
        description: 'A new password (null or absent: unchanged); `passwordSet` then reads true.',
      },
      currentPassword: {
        type: 'string',
        nullable: true,
        maxLength: MAX_PASSWORD_LENGTH,
        description: 'The password that is set: needed to change it (422 when wrong or missing).',
      },
      keepOAuthClients: {
        type: 'boolean',
        default: false,
        description:
          'With a password change: keep the OAuth clients this account made. By default the change deletes them and revokes every other token, refresh token and code; the token making the change stays (unless it belongs to a deleted client).',
      },
    },
  },
  description: 'An account that signs in and belongs to teams.',
})
@Entity('user')
export class User {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty()
  @Column('citext', { unique: true })
  email: string;

  @ApiProperty({ writable: ['put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  firstName: string | null;

  @ApiProperty({ writable: ['put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  lastName: string | null;

  @ApiProperty()
  @Column('boolean', { default: false })
  emailVerified: boolean;

  @ApiProperty({ sql: '{a}.password_hash IS NOT NULL', type: 'boolean' })
  passwordSet?: boolean;

  @Column('text', { nullable: true, select: false })
  passwordHash: string | null;

  @ApiProperty()
  @Column('boolean', { default: false })
  trialRedeemed: boolean;

  @ApiProperty({ writable: ['put'] })
  @MaxLength(64)
  @Column('text', { nullable: true })
  timezone: string | null;

  /** An uploaded image (POST /media) shown beside the user's notes and membership. */
  @ApiProperty({ writable: ['put'], embed: true, embedProperties: ['id', 'filePath'] })
  @ManyToOne(() => Media, { nullable: true, onDelete: 'SET NULL' })
  photo: Media | null;

  @ApiProperty({ writable: ['put'] })
  @Column('int', { nullable: true })
  shipmentsVolume: number | null;

  @ApiProperty({ writable: ['put'], items: 'string' })
  @Column('text', { array: true, default: '{}' })
  needsHelpWith: string[];

  @ApiProperty({ sql: teamIrisOfUserSql('{a}.id'), type: 'array', items: 'string' })
  teams?: string[];

  @Column('timestamptz', { nullable: true })
  lastLoggedInAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
