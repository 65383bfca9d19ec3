import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ApiProperty, ApiResource, workspaceRoutes } from '../hydra/metadata/decorators';
import { MaxLength, NotBlank } from '../hydra/validation/constraints';
import { isDefaultTrackingPageSql } from '../workspaces/workspace-page-store';
import { Workspace } from '../workspaces/workspace.entity';
import { DropshipperSettingsOutput } from './tracking-pages.output';
import { PageBuilder } from './page-builder.output';

/**
 * A public tracking page of a workspace, served at `<subdomain>` (unique across the service)
 * or a custom domain. `builder` holds the page design, `dropshipperSettings` what the page
 * hides from end customers.
 */
@ApiResource({
  path: '/tracking_pages',
  shortName: 'TrackingPage',
  nested: workspaceRoutes('tracking_pages'),
  tenancy: { workspace: 'workspace' },
  uniqueConstraints: {
    uq_tracking_page_subdomain: {
      property: 'subdomain',
      message: 'This subdomain is already taken.',
    },
    uq_tracking_page_domain: { property: 'domain', message: 'This domain is already taken.' },
  },
  defaultOrder: { createdAt: 'ASC' },
  description: 'A public tracking page of a workspace.',
})
@Entity('tracking_page')
export class TrackingPage {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('boolean', { default: true })
  enabled: boolean;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('boolean', { default: true })
  reviewsEnabled: boolean;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  title: string | null;

  @ApiProperty({ writable: ['post'] })
  @NotBlank({ on: ['post'] })
  @ManyToOne(() => Workspace, { nullable: false, onDelete: 'CASCADE' })
  workspace: Workspace | null;

  /** Form (pattern, length) and availability are checked by the service with precise messages. */
  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @Column('text')
  subdomain: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(253)
  @Column('text', { nullable: true })
  domain: string | null;

  /**
   * Set while the custom domain is verified: the last POST /domain/verify found the page's
   * TXT token; cleared when `domain` changes (a trigger) or another page proves the domain.
   */
  @ApiProperty()
  @Column('boolean', { default: false })
  domainEnabled: boolean;

  /** What the domain's TXT record must hold (src/domains); random, never shown otherwise. */
  @Column({
    type: 'text',
    select: false,
    insert: false,
    update: false,
    default: () => "replace(gen_random_uuid()::text, '-', '')",
  })
  domainToken?: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  sidebarField: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @MaxLength(255)
  @Column('text', { nullable: true })
  trackingNumberField: string | null;

  /** Every member the reference declares, at its default when not given (page-builder.ts). */
  @ApiProperty({ writable: ['post', 'put'], type: 'object', of: () => PageBuilder, csv: false })
  @Column('jsonb', { default: () => "'{}'::jsonb" })
  builder: Record<string, unknown>;

  @ApiProperty({
    writable: ['post', 'put'],
    type: 'object',
    of: () => DropshipperSettingsOutput,
    csv: false,
  })
  @Column('jsonb', { default: () => "'{}'::jsonb" })
  dropshipperSettings: Record<string, unknown>;

  @ApiProperty({ writable: ['post', 'put'], nullable: true })
  @MaxLength(255)
  @Column('text', { nullable: true })
  customThemeId: string | null;

  /** Generated from the builder (GET /tracking_pages/{id}/custom_theme). */
  @Column('jsonb', { nullable: true })
  customTheme: Record<string, unknown> | null;

  @ApiProperty({
    sql: isDefaultTrackingPageSql('{a}.id'),
    type: 'boolean',
  })
  usedByDefault?: boolean;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
