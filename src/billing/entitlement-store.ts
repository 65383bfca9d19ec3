import { Injectable } from '@nestjs/common';
import { queryOne, type SqlRunner } from '../database/query';
import type { EntitlementKey } from './plan-catalogue';
import { entitlementUseSql } from './team-billing-sql';

/** The plan checks' SQL: an entitlement's capacity and use, and the turn-taking lock. */
@Injectable()
export class EntitlementStore {
  /** Capacity (null: unlimited) and use of one entitlement; undefined when no such team. */
  use(
    runner: SqlRunner,
    teamId: string,
    key: EntitlementKey,
  ): Promise<{ capacity: number | null; used: number } | undefined> {
    return queryOne<{ capacity: number | null; used: number }>(runner, entitlementUseSql(key), [
      teamId,
    ]);
  }

  /**
   * The team's creates near the end of the month's volume take turns: an advisory lock held to
   * the end of the transaction.
   */
  async takeShipmentTurn(runner: SqlRunner, teamId: string): Promise<void> {
    await queryOne(
      runner,
      `SELECT pg_advisory_xact_lock(hashtext('plan-shipments:' || $1::text))`,
      [teamId],
    );
  }
}
