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
import { Assert, MaxLength, NotBlank } from '../hydra/validation/constraints';
import { User } from '../users/user.entity';
import { isRedirectUri } from './redirect-uri';

export const CLIENT_GRANTS = ['client_credentials', 'authorization_code', 'refresh_token'];

/**
 * An API client of one user: `publicId` is the OAuth `client_id`; the secret is shown
 * once, in the answer to its creation, and only its SHA-256 is kept.
 */
@ApiResource({
  path: '/oauth_clients',
  operations: ['list', 'get', 'delete'],
  tenancy: { user: 'user' },
  // A third-party application never sees nor makes keys to the account.
  delegated: false,
  description: 'An application that obtains access tokens (client id and secret).',
})
@ApiFilter(new ExactFilter(['name']))
@Index(['user', 'createdAt'])
@Entity('oauth_client')
export class OauthClient {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank()
  @MaxLength(255)
  @Column('text')
  name: string;

  /**
   * Always the calling user; an IRI of another user is a 422 (not visible). Null only for a
   * first-party client (the console's), which no account sees.
   */
  @ApiProperty({ writable: ['post'], nullable: false })
  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: true })
  user: User;

  /** Only in the answer to the creation; null on every later read. */
  @ApiProperty({ sql: 'NULL::text', type: 'string', nullable: true })
  secret?: string | null;

  @ApiProperty({ writable: ['post'], items: 'string' })
  @Assert(
    'redirectUris',
    (v) => v == null || (Array.isArray(v) && v.every(isRedirectUri)),
    'Each redirect URI must be an absolute https URI without a fragment (http only on a loopback address, or a reverse-domain private scheme).',
  )
  @Column('text', { array: true, default: '{}' })
  redirectUris: string[];

  @ApiProperty()
  @Index({ unique: true })
  @Column('text')
  publicId: string;

  @Column('text', { select: false })
  secretHash: string;

  @Column('text', { array: true, default: () => `'{${CLIENT_GRANTS.join(',')}}'` })
  grants: string[];

  /** Registered by the service itself (the console): public, redirect URIs on its own origin. */
  @Column('boolean', { default: false })
  firstParty: boolean;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
