import type { EntityManager } from 'typeorm';

export type IntegrationKind = 'storefront' | 'marketing_provider';

export interface IntegrationLink {
  id: string;
  teamId: string;
  workspaceId: string;
  kind: IntegrationKind;
  externalId: string;
  account: string | null;
}

/**
 * Links an external account to a workspace. The account moves when it was linked elsewhere;
 * the workspace's previous link of that kind is replaced.
 */
export async function linkWorkspace(
  em: EntityManager,
  link: Omit<IntegrationLink, 'id'> & { details?: Record<string, unknown> },
): Promise<IntegrationLink> {
  await em.query(
    `DELETE FROM integration_link WHERE kind = $1 AND (workspace_id = $2 OR external_id = $3)`,
    [link.kind, link.workspaceId, link.externalId],
  );
  const [row] = await em.query(
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
  return { id: row.id, ...link };
}

/** The team's most recent link of a kind (storefront billing charges through it), or null. */
export async function teamLink(
  em: EntityManager,
  teamId: string,
  kind: IntegrationKind,
): Promise<IntegrationLink | null> {
  const rows: Array<Record<string, string>> = await em.query(
    `SELECT id, team_id, workspace_id, kind, external_id, account FROM integration_link
      WHERE team_id = $1 AND kind = $2 ORDER BY created_at DESC, id LIMIT 1`,
    [teamId, kind],
  );
  return rows.length ? rowToLink(rows[0]) : null;
}

function rowToLink(r: Record<string, string>): IntegrationLink {
  return {
    id: r.id,
    teamId: r.team_id,
    workspaceId: r.workspace_id,
    kind: r.kind as IntegrationKind,
    externalId: r.external_id,
    account: r.account,
  };
}
