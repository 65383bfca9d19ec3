import type { SqlRunner } from '../database/query';
import { TrackingPageStore } from './tracking-page-store';

/** The store of this plain function: it holds no connection, only the caller's runner. */
const store = new TrackingPageStore();

/**
 * Custom domains the team's tracking pages have verified (domain_enabled: its TXT proof was
 * found by the last /domain/verify), lower case. Other modules ask here, not tracking_page.
 */
export function verifiedDomainsOfTeam(runner: SqlRunner, teamId: string): Promise<string[]> {
  return store.verifiedDomainsOfTeam(runner, teamId);
}
