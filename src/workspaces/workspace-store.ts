import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { quoteIdent } from '../hydra/core/sql-query';
import { orderCountUpToSql } from '../orders/order-counts-sql';
import { shipmentCountUpToSql } from '../shipments/shipment-counts-sql';

/** A table with a foreign key to workspace(id), by its column. */
export interface WorkspaceTable {
  table: string;
  column: string;
  /** Tables with a foreign key to this one. */
  referencedBy: string[];
}

/**
 * The workspace table's SQL: settings the write rules set after the row exists, and the
 * deletion of workspaces with everything in them. Statements go as prepared statements on the
 * caller's transaction (query).
 */
@Injectable()
export class WorkspaceStore {
  async exists(db: SqlRunner, id: string): Promise<boolean> {
    return (await queryOne(db, `SELECT 1 FROM workspace WHERE id = $1`, [id])) !== undefined;
  }

  async teamOf(db: SqlRunner, id: string): Promise<string | undefined> {
    const row = await queryOne<{ team_id: string }>(
      db,
      `SELECT team_id FROM workspace WHERE id = $1`,
      [id],
    );
    return row?.team_id;
  }

  /** The team of each existing workspace of `ids`, by workspace id. */
  async teamsOf(db: SqlRunner, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await query<{ id: string; team_id: string }>(
      db,
      `SELECT id, team_id FROM workspace WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.team_id]));
  }

  /** The team's workspaces not being deleted, oldest first. */
  async liveOfTeam(db: SqlRunner, teamId: string): Promise<Array<{ id: string; title: string }>> {
    return query(
      db,
      `SELECT id, title FROM workspace WHERE team_id = $1 AND NOT scheduled_for_delete ORDER BY created_at, id`,
      [teamId],
    );
  }

  /** A new workspace with the defaults of every setting; answers its id. */
  async create(db: SqlRunner, teamId: string, title: string): Promise<string> {
    const [row] = await query<{ id: string }>(
      db,
      `INSERT INTO workspace (team_id, title) VALUES ($1, $2) RETURNING id`,
      [teamId, title],
    );
    return row.id;
  }

  async defaultTrackingPageId(db: SqlRunner, id: string): Promise<string | null> {
    const row = await queryOne<{ default_tracking_page_id: string | null }>(
      db,
      `SELECT default_tracking_page_id FROM workspace WHERE id = $1`,
      [id],
    );
    return row?.default_tracking_page_id ?? null;
  }

  async setDefaultTrackingPage(db: SqlRunner, id: string, pageId: string): Promise<void> {
    await execute(db, `UPDATE workspace SET default_tracking_page_id = $2 WHERE id = $1`, [
      id,
      pageId,
    ]);
  }

  async setLogo(db: SqlRunner, id: string, mediaId: string): Promise<void> {
    await execute(db, `UPDATE workspace SET logo_id = $2 WHERE id = $1`, [id, mediaId]);
  }

  /** Points `emailSettings.logo.id` at another media (the copy attaching made). */
  async setEmailLogo(db: SqlRunner, id: string, mediaId: string): Promise<void> {
    await execute(
      db,
      `UPDATE workspace SET email_settings = jsonb_set(email_settings, '{logo,id}', to_jsonb($2::text)) WHERE id = $1`,
      [id, mediaId],
    );
  }

  /** Shipments + orders of the workspace, each counted up to `cap + 1` (enough to decide). */
  async sizeUpTo(db: SqlRunner, id: string, cap: number): Promise<number> {
    const [row] = await query<{ n: number }>(
      db,
      `SELECT ${shipmentCountUpToSql('$1', '$2')} + ${orderCountUpToSql('$1', '$2')} AS n`,
      [id, cap + 1],
    );
    return row.n;
  }

  /** Hides the workspace from every read until the background deletion removes it. */
  async scheduleDeletion(db: SqlRunner, id: string): Promise<void> {
    await execute(
      db,
      `UPDATE workspace SET scheduled_for_delete = true, updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** Deletes the workspace; what is left in it goes through the foreign-key cascades. */
  async delete(db: SqlRunner, id: string): Promise<void> {
    await execute(db, `DELETE FROM workspace WHERE id = $1`, [id]);
  }

  /** A workspace scheduled for deletion that no other node works on, locked; oldest turn first. */
  async lockNextScheduled(db: SqlRunner): Promise<string | undefined> {
    const row = await queryOne<{ id: string }>(
      db,
      `SELECT id FROM workspace WHERE scheduled_for_delete ORDER BY updated_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    return row?.id;
  }

  /** Moves the workspace to the end of the deletion queue (others take a turn). */
  async touch(db: SqlRunner, id: string): Promise<void> {
    await execute(db, `UPDATE workspace SET updated_at = now() WHERE id = $1`, [id]);
  }

  /**
   * Every table with a single-column foreign key to workspace(id), read from the catalogue (new
   * resources need no registration), with the tables that reference each.
   */
  async referencingTables(db: SqlRunner): Promise<WorkspaceTable[]> {
    const rows = await query<{ tbl: string; col: string; referenced_by: string[] }>(
      db,
      `SELECT c.conrelid::regclass::text AS tbl, a.attname AS col,
              COALESCE((SELECT array_agg(DISTINCT r.conrelid::regclass::text) FROM pg_constraint r
                         WHERE r.contype = 'f' AND r.confrelid = c.conrelid AND r.conrelid <> c.conrelid), '{}') AS referenced_by
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'f' AND c.confrelid = 'workspace'::regclass
          AND array_length(c.conkey, 1) = 1 AND c.conrelid <> 'workspace'::regclass`,
    );
    return rows.map((r) => ({ table: r.tbl, column: r.col, referencedBy: r.referenced_by }));
  }

  /**
   * Deletes up to `limit` rows of `table` (one of referencingTables) whose `column` is the
   * workspace, under a savepoint: a restricting reference undoes only this table's delete
   * (and throws). Answers how many rows went.
   */
  async deleteRowsOf(
    db: SqlRunner,
    { table, column }: Pick<WorkspaceTable, 'table' | 'column'>,
    workspaceId: string,
    limit: number,
  ): Promise<number> {
    const t = quoteIdent(table);
    const c = quoteIdent(column);
    await execute(db, 'SAVEPOINT workspace_batch');
    try {
      const [row] = await query<{ n: number }>(
        db,
        `WITH gone AS (DELETE FROM ${t} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${t} WHERE ${c} = $1 LIMIT $2)) RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [workspaceId, limit],
      );
      await execute(db, 'RELEASE SAVEPOINT workspace_batch');
      return row.n;
    } catch (error) {
      await execute(db, 'ROLLBACK TO SAVEPOINT workspace_batch');
      throw error;
    }
  }
}

/*
 * SQL fragments for other modules' statements over workspaces: the table and its columns stay
 * named here. Arguments are SQL expressions.
 */

/** How many workspaces team `team` has. */
export function workspaceCountOfTeamSql(team: string): string {
  return `(SELECT count(*)::int FROM workspace w WHERE w.team_id = ${team})`;
}

/** A subquery listing the ids of the workspaces of team `team`. */
export function workspaceIdsOfTeamSql(team: string): string {
  return `SELECT w.id FROM workspace w WHERE w.team_id = ${team}`;
}
