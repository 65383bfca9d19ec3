/**
 * Pieces of SQL over workspaces for other modules' statements (the workspace table is named
 * here only). Arguments are SQL expressions.
 */
export const workspaceTeamSql = {
  /** The team of a workspace: a uuid, null when there is no such workspace. */
  /**
   * The workspace table under `alias`, for a FROM clause whose select list reads the row
   * (ShipmentStore.creation, and the columns other modules add there).
   */
  tableAs: (alias: string): string => `workspace ${alias}`,

  teamOf: (workspaceId: string): string =>
    `(SELECT w.team_id FROM workspace w WHERE w.id = ${workspaceId})`,

  /** The `attention_waiting_days` of the workspace row under `alias` (a create's read). */
  attentionWaitingDaysAt: (alias: string): string => `${alias}.attention_waiting_days`,

  /** The workspace's `attention_waiting_days` (delivery predictions' waiting rule). */
  attentionWaitingDaysOf: (workspaceId: string): string =>
    `(SELECT w.attention_waiting_days FROM workspace w WHERE w.id = ${workspaceId})`,
};
