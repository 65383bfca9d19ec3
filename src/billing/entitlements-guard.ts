import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ValidationError, type Violation } from '../hydra/errors/api-errors';
import { WriteRules } from '../hydra/write/write-rules';
import { Shipment } from '../shipments/shipment.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { ENTITLEMENTS, EntitlementKey } from './plan-catalogue';
import { USAGE_SQL, capacitySql, forTeamAlias } from './team-billing-sql';

export const ENTITLEMENT_LIMIT_CODE = 'entitlement_limit_reached';

export interface EntitlementUse {
  /** Infinity on the unlimited self-hosted plan (billing-mode.ts). */
  capacity: number;
  used: number;
}

/**
 * Plan limits on writes: a workspace or a shipment beyond the team's plan is refused with a 422
 * naming the limit. Hooked into the resources' write pipeline through WriteRules, so the
 * workspaces and shipments modules know nothing of billing. Seats (`users`) are counted and
 * shown; invitations are written outside the pipeline, see assertAvailable.
 *
 * Workspaces and seats lock the team row (FOR NO KEY UPDATE, which does not block inserts that
 * reference the team) so two concurrent creations cannot both take the last one. Shipments do
 * not: a monthly volume may overshoot by the few created concurrently (then `limitExceeded`
 * shows it), rather than serialising every shipment write of a team.
 */
@Injectable()
export class EntitlementsGuard implements OnModuleInit {
  readonly enforced: boolean;

  constructor(
    private readonly rules: WriteRules,
    config: AppConfig,
  ) {
    this.enforced = config.billingEnforceEntitlements ?? config.nodeEnv !== 'test';
  }

  onModuleInit(): void {
    this.rules.register(Workspace, (entity, ctx) =>
      ctx.operation === 'post' && entity.team?.id
        ? this.check(ctx.em, entity.team.id, 'workspaces', 'team')
        : [],
    );
    this.rules.register(Shipment, async (entity, ctx) => {
      if (ctx.operation !== 'post' || !entity.workspace?.id) return [];
      const [row] = await ctx.em.query(`SELECT team_id FROM workspace WHERE id = $1`, [
        entity.workspace.id,
      ]);
      return row ? this.check(ctx.em, row.team_id, 'shipments', 'workspace') : [];
    });
  }

  /**
   * Throws the 422 of `check`: for writes outside the resource pipeline. Team invitations
   * (TeamMembersController.invite) need this one line inside their transaction to count
   * against the plan's seats: `await entitlements.assertAvailable(em, teamId, 'users', 'team')`.
   */
  async assertAvailable(
    em: EntityManager,
    teamId: string,
    key: EntitlementKey,
    propertyPath: string,
  ): Promise<void> {
    const violations = await this.check(em, teamId, key, propertyPath);
    if (violations.length) throw new ValidationError(violations);
  }

  /** Capacity and use of one entitlement of a team. */
  async use(em: EntityManager, teamId: string, key: EntitlementKey): Promise<EntitlementUse> {
    const [row] = await em.query(
      `SELECT ${forTeamAlias(capacitySql(key), 't')} AS capacity, ${forTeamAlias(USAGE_SQL[key], 't')} AS used
         FROM team t WHERE t.id = $1`,
      [teamId],
    );
    const capacity = row && row.capacity === null ? Infinity : Number(row?.capacity ?? 0);
    return { capacity, used: Number(row?.used ?? 0) };
  }

  /** A violation when adding `count` more of `key` would pass the plan's capacity. */
  async check(
    em: EntityManager,
    teamId: string,
    key: EntitlementKey,
    propertyPath: string,
    count = 1,
  ): Promise<Violation[]> {
    if (!this.enforced) return [];
    if (key !== 'shipments')
      await em.query(`SELECT 1 FROM team WHERE id = $1 FOR NO KEY UPDATE`, [teamId]);
    const { capacity, used } = await this.use(em, teamId, key);
    if (used + count <= capacity) return [];
    const spec = ENTITLEMENTS[key];
    const unit = capacity === 1 ? spec.display : spec.displayPlural;
    return [
      {
        propertyPath,
        message: `The team's plan allows ${capacity} ${unit}; ${used} ${used === 1 ? 'is' : 'are'} in use. Upgrade the plan to add more.`,
        code: ENTITLEMENT_LIMIT_CODE,
      },
    ];
  }
}
