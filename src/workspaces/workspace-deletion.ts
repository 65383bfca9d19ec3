import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PeriodicTask } from '../common/periodic-task';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { MediaService } from '../media/media.service';
import { WorkspaceStore, type WorkspaceTable } from './workspace-store';

const INTERVAL_NAME = 'workspace-deletion';
/** One tick works at most this long, so a node never hogs a connection. */
const TICK_BUDGET_MS = 5000;

/** A table whose rows go with a workspace, by its column naming the workspace. */
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
    private readonly workspaces: WorkspaceStore,
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
    const limit = this.config.workspaceSyncDeleteLimit;
    if ((await this.workspaces.sizeUpTo(em, workspaceId, limit)) > limit) {
      await this.workspaces.scheduleDeletion(em, workspaceId);
      return 'scheduled';
    }
    await this.workspaces.delete(em, workspaceId);
    return 'deleted';
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
      const id = await this.workspaces.lockNextScheduled(em);
      if (!id) return false;
      let budget = this.config.workspaceDeleteBatchSize;
      for (const table of tables) {
        if (budget <= 0) break;
        try {
          budget -= await this.workspaces.deleteRowsOf(em, table, id, budget);
        } catch (error) {
          // A restricting reference: leave this table to the final cascade.
          this.logger.warn(
            { err: error, table: table.table, workspaceId: id },
            'batch delete skipped a table',
          );
        }
      }
      if (budget > 0) {
        await this.workspaces.delete(em, id);
        this.logger.log({ workspaceId: id }, 'scheduled workspace deleted');
      } else {
        // Let other scheduled workspaces take a turn.
        await this.workspaces.touch(em, id);
      }
      return true;
    });
  }

  /** The tables referencing workspaces, ordered so tables others reference come last. */
  private async ownedTables(): Promise<OwnedTable[]> {
    this.owned ??= deletionOrder(await this.workspaces.referencingTables(this.dataSource));
    return this.owned;
  }
}

/**
 * The order a workspace's rows are deleted in: leaves first, a table once no other pending
 * table references it (a cycle is broken anywhere).
 */
export function deletionOrder(rows: readonly WorkspaceTable[]): OwnedTable[] {
  const names = new Set(rows.map((r) => r.table));
  const order: OwnedTable[] = [];
  const pending = [...rows];
  while (pending.length) {
    const i = pending.findIndex(
      (r) =>
        !r.referencedBy.some(
          (other) => names.has(other) && pending.some((p) => p.table === other && p !== r),
        ),
    );
    const [next] = pending.splice(i < 0 ? 0 : i, 1);
    order.push({ table: next.table.replace(/^"|"$/g, ''), column: next.column });
  }
  return order;
}
