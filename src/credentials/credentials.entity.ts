import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Choice, NotBlank } from '../hydra/validation/constraints';
import { Team } from '../teams/team.entity';
import { BooleanAliasFilter, TagFilter } from './credential-filters';
import { CREDENTIAL_TYPE_NAMES } from './credential-types';

/**
 * Credentials a team keeps for its integrations: an SMTP server, a store's API token, a
 * webhook endpoint and its signing secret. `parameters` are plain settings; `secrets` are
 * written in clear and read back masked (stored encrypted, see SecretBox), so no answer ever
 * carries a secret.
 */
@ApiResource({
  path: '/credentials',
  nested: [{ path: '/teams/:id/credentials', params: { id: 'team' }, maxItemsPerPage: 50000 }],
  tenancy: { team: 'team' },
  // The team's keys (parameters name servers and accounts): not for third-party applications.
  delegated: false,
  defaultOrder: { createdAt: 'ASC' },
  description: 'Credentials of a team, used by workflows and e-mail settings.',
})
@ApiFilter(
  new ExactFilter(['type']),
  new OrderFilter(['createdAt', 'updatedAt']),
  new TagFilter(),
  new BooleanAliasFilter('onlyVisibleTypes', 'visible', { onlyWhenTrue: true, type: 'string' }),
)
@Entity('credentials')
export class Credentials {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post'], example: 'smtp' })
  @NotBlank({ on: ['post'] })
  @Choice(CREDENTIAL_TYPE_NAMES)
  @Column('text')
  type: string;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Team, { onDelete: 'CASCADE', nullable: false })
  team: Team;

  @ApiProperty({
    writable: ['post', 'put'],
    type: 'object',
    description: 'Plain settings of the type (e.g. url, host, port, username).',
    example: { url: 'https://example.com/hooks/tracking' },
  })
  @Column('jsonb', { default: () => "'{}'::jsonb" })
  parameters: Record<string, unknown>;

  @ApiProperty({
    writable: ['post', 'put'],
    type: 'object',
    description:
      'Secret settings (password, tokens, signingSecret): written in clear, read back masked. ' +
      'On PUT, members left out are kept and null removes one.',
    example: { signingSecret: '********cdef' },
  })
  @Column('jsonb', { name: 'secret_hints', default: () => "'{}'::jsonb" })
  secrets: Record<string, unknown>;

  @Column('text', { nullable: true })
  secretsCiphertext: string | null;

  @ApiProperty({ type: 'array', items: 'string' })
  @Column('text', { array: true, default: () => "'{}'" })
  tags: string[];

  @ApiProperty({ description: 'Listed with onlyVisibleTypes=true.' })
  @Column('boolean', { default: true })
  visible: boolean;

  @ApiProperty({
    description:
      'When the provider refused these credentials (HTTP 401/403); null while they work. ' +
      'Writing the credentials again (PUT) clears it.',
  })
  @Column('timestamptz', { nullable: true })
  rejectedAt: Date | null;

  @ApiProperty({ description: "The provider's answer when it refused the credentials." })
  @Column('text', { nullable: true })
  rejectionReason: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
