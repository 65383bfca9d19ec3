import type { EntityManager } from 'typeorm';

/**
 * Custom domains the team's tracking pages have verified (domain_enabled: its TXT proof was
 * found by the last /domain/verify), lower case. Other modules ask here, not tracking_page.
 */
export async function verifiedDomainsOfTeam(
  em: Pick<EntityManager, 'query'>,
  teamId: string,
): Promise<string[]> {
  const rows: Array<{ domain: string }> = await em.query(
    `SELECT DISTINCT lower(p.domain) AS domain FROM tracking_page p
       JOIN workspace w ON w.id = p.workspace_id
      WHERE w.team_id = $1 AND p.domain_enabled AND p.domain IS NOT NULL`,
    [teamId],
  );
  return rows.map((r) => r.domain);
}
