import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/**
 * What other modules look up about a team (whether it exists, who administers it) and the
 * lock a plan check takes on it, and the team SQL their one-statement reads embed (its seats,
 * for plan usage). The writes of teams and memberships stay in the teams module.
 */
@Injectable()
export class TeamLookupStore {
  async exists(runner: SqlRunner, teamId: string): Promise<boolean> {
    const rows = await query(runner, 'SELECT 1 FROM team WHERE id = $1', [teamId]);
    return rows.length > 0;
  }

  /** Users who own or administer the team (members who accepted). */
  async adminIds(runner: SqlRunner, teamId: string): Promise<string[]> {
    const rows = await query<{ member_id: string }>(
      runner,
      `SELECT member_id FROM team_member
        WHERE team_id = $1 AND member_id IS NOT NULL AND role IN ('owner', 'admin')`,
      [teamId],
    );
    return rows.map((r) => r.member_id);
  }

  /**
   * Locks the team row for the transaction (FOR NO KEY UPDATE: rows that reference the team
   * may still be inserted), so two writes counting the team's use cannot both take the last
   * unit of a plan.
   */
  async lockForCount(runner: SqlRunner, teamId: string): Promise<void> {
    await query(runner, 'SELECT 1 FROM team WHERE id = $1 FOR NO KEY UPDATE', [teamId]);
  }
}

/** SQL: true when the team `team` (an SQL expression) exists. */
export function teamExistsSql(team: string): string {
  return `EXISTS (SELECT 1 FROM team lk_t WHERE lk_t.id = ${team})`;
}

/** SQL: how many memberships (seats) the team `team` has, invitations included. */
export function teamSeatCountSql(team: string): string {
  return `(SELECT count(*)::int FROM team_member lk_m WHERE lk_m.team_id = ${team})`;
}
