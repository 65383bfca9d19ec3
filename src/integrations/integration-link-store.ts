import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

export type IntegrationKind = 'storefront' | 'marketing_provider';

export interface IntegrationLink {
  id: string;
  teamId: string;
  workspaceId: string;
  kind: IntegrationKind;
  externalId: string;
  account: string | null;
}

interface LinkRow {
  id: string;
  team_id: string;
  workspace_id: string;
  kind: IntegrationKind;
  external_id: string;
  account: string | null;
}

/** The integration_link table's SQL: external accounts (shops, marketing) linked to workspaces. */
@Injectable()
export class IntegrationLinkStore {
  /**
   * Links an external account to a workspace. The account moves when it was linked elsewhere;
   * the workspace's previous link of that kind is replaced.
   */
  async link(
    runner: SqlRunner,
    link: Omit<IntegrationLink, 'id'> & { details?: Record<string, unknown> },
  ): Promise<IntegrationLink> {
    await query(
      runner,
      'DELETE FROM integration_link WHERE kind = $1 AND (workspace_id = $2 OR external_id = $3)',
      [link.kind, link.workspaceId, link.externalId],
    );
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO integration_link (team_id, workspace_id, kind, external_id, account, details)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        link.teamId,
        link.workspaceId,
        link.kind,
        link.externalId,
        link.account,
        JSON.stringify(link.details ?? {}),
      ],
    );
    return { id: row!.id, ...link };
  }

  /** Whether an account of this kind is linked to a workspace. */
  async isLinked(runner: SqlRunner, kind: IntegrationKind, externalId: string): Promise<boolean> {
    const rows = await query(
      runner,
      'SELECT 1 FROM integration_link WHERE kind = $1 AND external_id = $2',
      [kind, externalId],
    );
    return rows.length > 0;
  }

  /** The team's most recent link of a kind (storefront billing charges through it), or null. */
  async teamLink(
    runner: SqlRunner,
    teamId: string,
    kind: IntegrationKind,
  ): Promise<IntegrationLink | null> {
    const row = await queryOne<LinkRow>(
      runner,
      `SELECT id, team_id, workspace_id, kind, external_id, account FROM integration_link
        WHERE team_id = $1 AND kind = $2 ORDER BY created_at DESC, id LIMIT 1`,
      [teamId, kind],
    );
    return row
      ? {
          id: row.id,
          teamId: row.team_id,
          workspaceId: row.workspace_id,
          kind: row.kind,
          externalId: row.external_id,
          account: row.account,
        }
      : null;
  }
}
