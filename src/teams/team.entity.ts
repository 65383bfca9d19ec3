import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { MaxLength, NotBlank } from '../hydra/validation/constraints';
import {
  BILLING_PROVIDER_SQL,
  ENTITLEMENTS_SQL,
  SHOPIFY_BILLING_WORKFLOW_SQL,
  SUBSCRIPTION_SQL,
} from '../billing/team-billing-sql';
import { workspaceCountOfTeamSql } from '../workspaces/workspace-store';
import { TeamSubscription } from '../billing/billing.output';

/** What a team member's embedded `team` shows (the reference embeds the whole team). */
export const TEAM_EMBEDDED_PROPERTIES = [
  'id',
  'name',
  'workspacesCount',
  'usersCount',
  'entitlements',
  'subscription',
  'billingProvider',
  'shopifyBillingWorkflowId',
];

@ApiResource({
  path: '/teams',
  tenancy: { self: 'team' },
  // Anyone signed in creates a team (and owns it); admins rename it, only owners delete it.
  access: { post: 'user', put: 'team:admin', delete: 'team:owner' },
  description: 'An account holder: owns workspaces and has members.',
})
@Entity('team')
export class Team {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @NotBlank()
  @MaxLength(255)
  @Column('text')
  name: string;

  @ApiProperty({ sql: workspaceCountOfTeamSql('{a}.id'), type: 'integer' })
  workspacesCount?: number;

  @ApiProperty({
    sql: '(SELECT count(*)::int FROM team_member m WHERE m.team_id = {a}.id AND m.member_id IS NOT NULL)',
    type: 'integer',
  })
  usersCount?: number;

  /** Capacity and use of each plan limit (see src/billing/plan-catalogue.ts). */
  @ApiProperty({ sql: ENTITLEMENTS_SQL, type: 'object', csv: false })
  entitlements?: Record<string, unknown>;

  /** The team's subscription (plan, status, period end, provider ids), or null. */
  @ApiProperty({
    sql: SUBSCRIPTION_SQL,
    type: 'object',
    of: () => TeamSubscription,
    nullable: true,
    csv: false,
  })
  subscription?: Record<string, unknown> | null;

  /** Who bills the team: `billing_provider` (hosted checkout) or `storefront` (app charges). */
  @ApiProperty({ sql: BILLING_PROVIDER_SQL, type: 'string' })
  billingProvider?: string;

  /** The storefront (Shopify) integration that bills the team, when it bills it. */
  @ApiProperty({ sql: SHOPIFY_BILLING_WORKFLOW_SQL, nullable: true })
  shopifyBillingWorkflowId?: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
