import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PeriodicTask } from '../common/periodic-task';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { MediaService } from '../media/media.service';
import { quoteIdent } from '../hydra/core/sql-query';

/** Tables whose rows make a workspace "large" (spec: shipments + orders). */
const SIZE_TABLES = ['shipment', 'order'];
const INTERVAL_NAME = 'workspace-deletion';
/** One tick works at most this long, so a node never hogs a connection. */
const TICK_BUDGET_MS = 5000;

interface OwnedTable {
  table: string;
  column: string;
}

/**
 * Deletes workspaces. Small ones go at once, in the request's transaction, through the FK
 * cascades. Large ones (more than WORKSPACE_SYNC_DELETE_LIMIT shipments + orders) are only
 * flagged `scheduled_for_delete` (hidden from every read at once, see PrincipalLoader) and
 * removed here in batches by a periodic job on every node: each batch locks its workspace row
 * with FOR UPDATE SKIP LOCKED, so nodes share the work without doing it twice, and the flag in
 * the database makes the job survive restarts.
 */
@Injectable()
export class WorkspaceDeletion implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WorkspaceDeletion');
  private periodicTask?: PeriodicTask;
  private owned: OwnedTable[] | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly media: MediaService,
  ) {}

  private get periodic(): PeriodicTask {
    return (this.periodicTask ??= new PeriodicTask(INTERVAL_NAME, this.scheduler, this.logger));
  }

  onApplicationBootstrap(): void {
    this.periodic.start(this.config.workspaceDeleteIntervalSeconds * 1000, () => this.tick());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Deletes now (small workspace) or schedules; runs in the caller's transaction. */
  async deleteOrSchedule(em: EntityManager, workspaceId: string): Promise<'deleted' | 'scheduled'> {
    if (
      (await this.size(em, workspaceId, this.config.workspaceSyncDeleteLimit)) >
      this.config.workspaceSyncDeleteLimit
    ) {
      await em.query(
        `UPDATE workspace SET scheduled_for_delete = true, updated_at = now() WHERE id = $1`,
        [workspaceId],
      );
      return 'scheduled';
    }
    await em.query(`DELETE FROM workspace WHERE id = $1`, [workspaceId]);
    return 'deleted';
  }

  /** Shipments + orders of the workspace, counted up to `cap + 1` (enough to decide). */
  async size(em: EntityManager, workspaceId: string, cap: number): Promise<number> {
    let total = 0;
    for (const table of SIZE_TABLES) {
      const [{ exists }] = await em.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [
        quoteIdent(table),
      ]);
      if (!exists) continue;
      const [{ n }] = await em.query(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${quoteIdent(table)} WHERE workspace_id = $1 LIMIT $2) x`,
        [workspaceId, cap + 1 - total],
      );
      total += n;
      if (total > cap) break;
    }
    return total;
  }

  /** Works through scheduled workspaces until none is left or the time budget is spent. */
  async tick(budgetMs = TICK_BUDGET_MS): Promise<number> {
    const until = Date.now() + budgetMs;
    let batches = 0;
    while (Date.now() < until && (await this.runBatch())) batches++;
    await this.media.sweepOrphanFiles();
    return batches;
  }

  /**
   * One transaction: lock one scheduled workspace nobody else is working on, delete up to
   * WORKSPACE_DELETE_BATCH_SIZE rows of its tables (leaf tables first), and delete the workspace
   * itself once they are empty. False when there was nothing to do.
   */
  async runBatch(): Promise<boolean> {
    const tables = await this.ownedTables();
    return this.dataSource.transaction(async (em) => {
      const picked = await em.query(
        `SELECT id FROM workspace WHERE scheduled_for_delete ORDER BY updated_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (picked.length === 0) return false;
      const id = picked[0].id as string;
      let budget = this.config.workspaceDeleteBatchSize;
      for (const { table, column } of tables) {
        if (budget <= 0) break;
        const t = quoteIdent(table);
        const c = quoteIdent(column);
        await em.query('SAVEPOINT workspace_batch');
        try {
          const [, deleted] = (await em.query(
            `DELETE FROM ${t} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${t} WHERE ${c} = $1 LIMIT $2))`,
            [id, budget],
          )) as [unknown, number];
          budget -= deleted;
          await em.query('RELEASE SAVEPOINT workspace_batch');
        } catch (error) {
          // A restricting reference: leave this table to the final cascade.
          await em.query('ROLLBACK TO SAVEPOINT workspace_batch');
          this.logger.warn({ err: error, table, workspaceId: id }, 'batch delete skipped a table');
        }
      }
      if (budget > 0) {
        await em.query(`DELETE FROM workspace WHERE id = $1`, [id]);
        this.logger.log({ workspaceId: id }, 'scheduled workspace deleted');
      } else {
        // Let other scheduled workspaces take a turn.
        await em.query(`UPDATE workspace SET updated_at = now() WHERE id = $1`, [id]);
      }
      return true;
    });
  }

  /**
   * Every table with a foreign key to workspace(id), read from the catalogue (new resources
   * need no registration), ordered so tables others reference come last.
   */
  private async ownedTables(): Promise<OwnedTable[]> {
    if (this.owned) return this.owned;
    const rows: Array<{ tbl: string; col: string; referenced_by: string[] }> = await this.dataSource
      .query(`
        SELECT c.conrelid::regclass::text AS tbl, a.attname AS col,
               COALESCE((SELECT array_agg(DISTINCT r.conrelid::regclass::text) FROM pg_constraint r
                          WHERE r.contype = 'f' AND r.confrelid = c.conrelid AND r.conrelid <> c.conrelid), '{}') AS referenced_by
          FROM pg_constraint c
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
         WHERE c.contype = 'f' AND c.confrelid = 'workspace'::regclass
           AND array_length(c.conkey, 1) = 1 AND c.conrelid <> 'workspace'::regclass`);
    const names = new Set(rows.map((r) => r.tbl));
    const order: OwnedTable[] = [];
    const pending = [...rows];
    // Leaves first: a table goes once no pending table references it.
    while (pending.length) {
      const i = pending.findIndex(
        (r) =>
          !r.referenced_by.some(
            (other) => names.has(other) && pending.some((p) => p.tbl === other && p !== r),
          ),
      );
      const [next] = pending.splice(i < 0 ? 0 : i, 1);
      order.push({ table: next.tbl.replace(/^"|"$/g, ''), column: next.col });
    }
    this.owned = order;
    return order;
  }
}
