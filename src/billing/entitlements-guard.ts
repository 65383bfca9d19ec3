import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { poolOf, type SqlRunner } from '../database/query';
import { COMPACT_AFTER_DELTAS, CountCompactor } from '../hydra/collection/maintained-counts';
import { ValidationError, type Violation } from '../common/errors/api-errors';
import { WriteRules } from '../hydra/write/write-rules';
import { billingConfigured } from './billing-mode';
import {
  ExtendsShipmentWrites,
  type CreationCheck,
  type ShipmentWriteExtension,
} from '../shipments/shipment-write-extensions';
import { TeamLookupStore } from '../teams/team-lookup-store';
import { Workspace } from '../workspaces/workspace.entity';
import { EntitlementStore } from './entitlement-store';
import { ENTITLEMENTS, EntitlementKey } from './plan-catalogue';
import { MONTHLY_SHIPMENTS, SHIPMENT_VOLUME_SQL } from './team-billing-sql';

export const ENTITLEMENT_LIMIT_CODE = 'entitlement_limit_reached';

/** What SHIPMENT_VOLUME_SQL reads. */
interface ShipmentVolume {
  team: string;
  capacity: number | null;
  used: number;
  deltas: number;
  scopes: string[] | null;
  months: string[] | null;
}

export interface EntitlementUse {
  /** Infinity on the unlimited self-hosted plan (billing-mode.ts). */
  capacity: number;
  used: number;
}

/**
 * Plan limits on writes: a workspace or a shipment beyond the team's plan is refused with a 422
 * naming the limit. Hooked into the resources' write pipeline through WriteRules (workspaces)
 * and as a shipment write extension (`creationCheck`: the volume is read with a shipment
 * create's first statement), so the workspaces and shipments modules know nothing of billing. Seats (`users`) are counted and
 * shown; invitations are written outside the pipeline, see assertAvailable.
 *
 * Workspaces and seats lock the team row (FOR NO KEY UPDATE, which does not block inserts that
 * reference the team) so two concurrent creations cannot both take the last one. Shipments
 * take a lock only near the end of the month's volume (CONTENDED_SHIPMENTS left): from there
 * a team's creates take turns on an advisory lock held to commit and count again, so none
 * overshoots the plan, while a team far from its limit never serialises its shipment writes.
 * The count is maintained in each writer's transaction (MONTHLY_SHIPMENTS), so the count read
 * under the lock includes every create that held it before.
 */
/**
 * Shipments left in a month's volume below which a team's creates take turns (checkShipment):
 * more than can be in flight at once for one team (connections of every API node), so the
 * creates that skip the lock cannot reach the limit between them.
 */
export const CONTENDED_SHIPMENTS = 1000;

@Injectable()
@ExtendsShipmentWrites()
export class EntitlementsGuard implements OnModuleInit, ShipmentWriteExtension {
  readonly enforced: boolean;
  /** Without billing every team is on the unlimited self-hosted plan (billing-mode.ts). */
  private readonly billing: boolean;
  private readonly logger = new Logger(EntitlementsGuard.name);
  private readonly compactor: CountCompactor;
  /** Without billing every team is unlimited: nothing to read or check. */
  readonly creationCheck: CreationCheck | null;

  constructor(
    private readonly rules: WriteRules,
    config: AppConfig,
    dataSource: DataSource,
    private readonly store: EntitlementStore,
    private readonly teams: TeamLookupStore,
  ) {
    this.enforced = config.billingEnforceEntitlements ?? config.nodeEnv !== 'test';
    this.billing = billingConfigured(config);
    this.compactor = new CountCompactor(
      () => poolOf(dataSource),
      (error) => this.logger.warn(`folding monthly shipment counts failed: ${String(error)}`),
    );
    this.creationCheck =
      this.enforced && this.billing
        ? {
            column: `${SHIPMENT_VOLUME_SQL} AS plan_volume`,
            violations: (row, ctx) =>
              this.checkShipment(row.plan_volume as ShipmentVolume | null, ctx.em),
          }
        : null;
  }

  onModuleInit(): void {
    this.rules.register(Workspace, (entity, ctx) =>
      ctx.operation === 'post' && entity.team?.id
        ? this.check(ctx.em, entity.team.id, 'workspaces', 'team')
        : [],
    );
  }

  /**
   * The monthly volume of the team of a new shipment's workspace, read with the create's first
   * statement (its team, the plan's capacity, the month's maintained count). The count's delta
   * rows are folded after the answer when many (as the lists do).
   */
  private async checkShipment(row: ShipmentVolume | null, em: SqlRunner): Promise<Violation[]> {
    if (!row) return [];
    if (row.deltas > COMPACT_AFTER_DELTAS) {
      this.compactor.compact([
        MONTHLY_SHIPMENTS.name,
        row.scopes,
        MONTHLY_SHIPMENTS.dimension,
        row.months,
      ]);
    }
    const capacity = row.capacity === null ? Infinity : Number(row.capacity);
    if (capacity - Number(row.used) > CONTENDED_SHIPMENTS) return [];
    // Near the limit, the concurrent creates of the team could each see the last shipment
    // free: one at a time from here to commit, each counting what those before it committed.
    await this.store.takeShipmentTurn(em, row.team);
    return this.refusal('shipments', 'workspace', await this.use(em, row.team, 'shipments'), 1);
  }

  /**
   * Throws the 422 of `check`: for writes outside the resource pipeline. Team invitations
   * (TeamMembersController.invite) need this one line inside their transaction to count
   * against the plan's seats: `await entitlements.assertAvailable(em, teamId, 'users', 'team')`.
   */
  async assertAvailable(
    em: SqlRunner,
    teamId: string,
    key: EntitlementKey,
    propertyPath: string,
  ): Promise<void> {
    const violations = await this.check(em, teamId, key, propertyPath);
    if (violations.length) throw new ValidationError(violations);
  }

  /** Capacity and use of one entitlement of a team. */
  async use(em: SqlRunner, teamId: string, key: EntitlementKey): Promise<EntitlementUse> {
    const row = await this.store.use(em, teamId, key);
    const capacity = row && row.capacity === null ? Infinity : Number(row?.capacity ?? 0);
    return { capacity, used: Number(row?.used ?? 0) };
  }

  /** A violation when adding `count` more of `key` would pass the plan's capacity. */
  async check(
    em: SqlRunner,
    teamId: string,
    key: EntitlementKey,
    propertyPath: string,
    count = 1,
  ): Promise<Violation[]> {
    if (!this.enforced) return [];
    if (key !== 'shipments') await this.teams.lockForCount(em, teamId);
    return this.refusal(key, propertyPath, await this.use(em, teamId, key), count);
  }

  /** The 422 violation when `count` more of `key` would pass the capacity; none otherwise. */
  private refusal(
    key: EntitlementKey,
    propertyPath: string,
    { capacity, used }: EntitlementUse,
    count: number,
  ): Violation[] {
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
