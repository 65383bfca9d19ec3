import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/** A workspace as other modules name it in what they tell people (a failed webhook's notice). */
export interface WorkspaceSummary {
  teamId: string;
  title: string;
}

/**
 * What other modules look up about a workspace (its team, whether it is still in use, its
 * title), and the workspace SQL their one-statement reads embed (the team's workspaces, for
 * plan usage and billing). The writes of workspaces stay in the workspaces module.
 */
@Injectable()
export class WorkspaceLookupStore {
  /** The workspace's team; null when there is no such workspace. */
  async teamOf(runner: SqlRunner, workspaceId: string): Promise<string | null> {
    const [row] = await query<{ team_id: string }>(
      runner,
      'SELECT team_id FROM workspace WHERE id = $1',
      [workspaceId],
    );
    return row?.team_id ?? null;
  }

  /** The team of a workspace not scheduled for deletion; null otherwise. */
  async activeTeamOf(runner: SqlRunner, workspaceId: string): Promise<string | null> {
    const [row] = await query<{ team_id: string }>(
      runner,
      'SELECT team_id FROM workspace WHERE id = $1 AND NOT scheduled_for_delete',
      [workspaceId],
    );
    return row?.team_id ?? null;
  }

  async summary(runner: SqlRunner, workspaceId: string): Promise<WorkspaceSummary | null> {
    const [row] = await query<{ team_id: string; title: string }>(
      runner,
      'SELECT team_id, title FROM workspace WHERE id = $1',
      [workspaceId],
    );
    return row ? { teamId: row.team_id, title: row.title } : null;
  }

  /** The ids of the team's workspaces. */
  async idsOfTeam(runner: SqlRunner, teamId: string): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      'SELECT id FROM workspace WHERE team_id = $1 ORDER BY id',
      [teamId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * How many workspaces of the team send their e-mail through these credentials (they name
   * them by IRI in emailSettings.smtpCredentials).
   */
  async smtpCredentialsUses(
    runner: SqlRunner,
    teamId: string,
    credentialsId: string,
  ): Promise<number> {
    const [row] = await query<{ n: number }>(
      runner,
      `SELECT count(*)::int AS n FROM workspace
        WHERE team_id = $1 AND email_settings->>'smtpCredentials' = '/credentials/' || $2::text`,
      [teamId, credentialsId],
    );
    return row.n;
  }
}

/** SQL: the ids of the workspaces of the team `team` (an SQL expression), as a subquery. */
export function teamWorkspacesSql(team: string): string {
  return `(SELECT lk_w.id FROM workspace lk_w WHERE lk_w.team_id = ${team})`;
}

/** SQL: how many workspaces the team `team` has that are not scheduled for deletion. */
export function activeWorkspaceCountSql(team: string): string {
  return `(SELECT count(*)::int FROM workspace lk_w WHERE lk_w.team_id = ${team} AND NOT lk_w.scheduled_for_delete)`;
}

/** SQL: the team of the workspace row `workspace` (an alias in the caller's statement). */
export function workspaceTeamSql(workspace: string): string {
  return `${workspace}.team_id`;
}
