import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf } from '../database/query';
import { AppConfig } from '../config/app-config';
import { PeriodicTask } from '../common/periodic-task';
import { MediaService } from '../media/media.service';
import { removeUnusedMedia } from '../media/unused-media';
import { RETENTION_RULES, type RetentionRule } from './retention-rule';
import {
  cutoffsOf,
  orderedRules,
  plannedRules,
  retentionPolicy,
  retentionTables,
  sweepSummary,
  type RetentionCategory,
} from './retention-rules';
import { RetentionStore, type RetentionCounts } from './retention-store';

export { RETENTION_LOCK_KEY } from './retention-store';

const INTERVAL_NAME = 'retention';
/** Rows deleted per statement: short transactions, short row locks. */
export const RETENTION_BATCH_SIZE = 5000;
/** A periodic sweep starts no new batch after this long; the next one carries on. */
const TICK_BUDGET_MS = 60_000;

export interface SweepOptions {
  /** Count what would be deleted; delete nothing. */
  dryRun?: boolean;
  /** Wait for a sweep running on another node to end instead of skipping this one. */
  wait?: boolean;
  now?: Date;
  batchSize?: number;
  /** Start no new batch after this many ms (the rest waits for the next sweep). */
  budgetMs?: number;
}

export interface SweepResult {
  dryRun: boolean;
  /** False when another node was sweeping, so this one did nothing. */
  ran: boolean;
  /** Every rule ran out of rows (false when the budget or shutdown cut the sweep short). */
  complete: boolean;
  /** Per category, the instant before which finished records go (null: kept forever). */
  cutoffs: Record<RetentionCategory, string | null>;
  /** Rows deleted per table (dry run: rows that would be). */
  deleted: Record<string, number>;
  /** Stored files removed (dry run: files of the exports that would be deleted). */
  files: number;
  ms: number;
}

/**
 * Deletes finished records older than their RETENTION_DAYS_* so tables stop growing. Each
 * module declares the rules of its own tables, with their reasons, in its store and provides
 * them under RETENTION_RULES (retention-rule.ts); the sweeper runs every one. A sweep holds a session advisory lock
 * (pg_try_advisory_lock: one node sweeps, the others skip that round) on one connection, and
 * deletes in batches of RETENTION_BATCH_SIZE rows per statement, each locking its rows with
 * FOR UPDATE SKIP LOCKED (rows a writer holds wait for the next sweep), taking the tables in
 * turns. Files of deleted exports are queued by the export_queue_file_gc trigger and removed
 * through MediaService.sweepOrphanFiles after the rows are gone. Notes on deleted workflow runs
 * and widget logs go in the same statements; the media they used right after each batch, when
 * nothing else uses it (removeUnusedMedia), its files through the same sweep. Runs every
 * RETENTION_INTERVAL_SECONDS on a PeriodicTask, and once from `npm run cli -- purge`.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RetentionSweeper');
  private periodicTask?: PeriodicTask;
  private stopping = false;
  private provided?: RetentionRule[];

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly media: MediaService,
    private readonly moduleRef: ModuleRef,
    private readonly store: RetentionStore = new RetentionStore(),
  ) {}

  /** Every module's rules (RETENTION_RULES), in sweep order (orderedRules). */
  get rules(): RetentionRule[] {
    return (this.provided ??= orderedRules(
      this.moduleRef.get<RetentionRule | RetentionRule[]>(RETENTION_RULES, {
        strict: false,
        each: true,
      }),
    ));
  }

  get enabled(): boolean {
    return this.config.retentionEnabled ?? this.config.nodeEnv !== 'test';
  }

  private get pool(): Pool {
    return poolOf(this.dataSource);
  }

  private get periodic(): PeriodicTask {
    return (this.periodicTask ??= new PeriodicTask(INTERVAL_NAME, this.scheduler, this.logger));
  }

  onApplicationBootstrap(): void {
    if (this.enabled) {
      this.periodic.start(this.config.retentionIntervalSeconds * 1000, () =>
        this.sweep({ budgetMs: TICK_BUDGET_MS }),
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.periodic.stop();
  }

  /** One sweep; logs one line when it deleted something. */
  async sweep(options: SweepOptions = {}): Promise<SweepResult> {
    const started = Date.now();
    const now = options.now ?? new Date();
    const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
    const deadline = started + (options.budgetMs ?? Infinity);
    const policy = retentionPolicy(this.config);
    const rules = this.rules;
    const planned = plannedRules(now, policy, rules);
    const cutoffs = cutoffsOf(now, policy);
    const result: SweepResult = {
      dryRun: options.dryRun ?? false,
      ran: false,
      complete: false,
      cutoffs: Object.fromEntries(
        Object.entries(cutoffs).map(([c, at]) => [c, at ? at.toISOString() : null]),
      ) as SweepResult['cutoffs'],
      deleted: Object.fromEntries(retentionTables(rules).map((t) => [t, 0])),
      files: 0,
      ms: 0,
    };
    // One connection of the application's pool holds the session lock and runs every batch.
    const client = await this.pool.connect();
    /** Set when the lock could not be released: the connection must not go back to the pool. */
    let broken: Error | undefined;
    try {
      if (result.dryRun) {
        for (const { rule, cutoff } of planned) {
          const row = await this.store.count(client, rule, cutoff);
          this.add(result, rule, row);
          result.files += row.files ?? 0;
        }
        result.ran = result.complete = true;
        result.ms = Date.now() - started;
        return result;
      }
      if (!(await this.lock(client, options.wait ?? false))) {
        this.logger.debug('retention sweep skipped: another node is sweeping');
        result.ms = Date.now() - started;
        return result;
      }
      result.ran = true;
      try {
        result.complete = await this.deleteAll(client, planned, result, batchSize, deadline);
      } finally {
        await this.store.unlock(client).catch((error: Error) => (broken = error));
      }
    } finally {
      // A discarded connection ends its session, and the lock with it.
      client.release(broken);
    }
    // The rows are gone; their files were queued by the trigger in the same statements.
    let removed: number;
    do {
      removed = await this.media.sweepOrphanFiles(batchSize);
      result.files += removed;
    } while (removed === batchSize && !this.stopping);
    result.ms = Date.now() - started;
    const summary = sweepSummary(result.deleted, result.files);
    if (summary) {
      this.logger.log(
        { deleted: result.deleted, files: result.files, ms: result.ms, complete: result.complete },
        `${summary} in ${(result.ms / 1000).toFixed(1)} s${result.complete ? '' : ' (more left for the next sweep)'}`,
      );
    }
    return result;
  }

  private async lock(client: PoolClient, wait: boolean): Promise<boolean> {
    if (!wait) return this.store.tryLock(client);
    await this.store.lock(client);
    return true;
  }

  /**
   * Batches of every rule in turns until each runs out of rows; false when the deadline or
   * shutdown came first.
   */
  private async deleteAll(
    client: PoolClient,
    planned: Array<{ rule: RetentionRule; cutoff: Date }>,
    result: SweepResult,
    batchSize: number,
    deadline: number,
  ): Promise<boolean> {
    let active = planned;
    while (active.length > 0) {
      const more: typeof active = [];
      for (const entry of active) {
        if (this.stopping || Date.now() >= deadline) return false;
        const row = await this.store.deleteBatch(client, entry.rule, entry.cutoff, batchSize);
        this.add(result, entry.rule, row);
        // The deleted notes' media go once nothing else uses them (files through the queue).
        const media = row.note_media ?? [];
        if (media.length > 0) {
          await this.dataSource.transaction((em) => removeUnusedMedia(em, media));
        }
        if (row.n >= batchSize) more.push(entry);
      }
      active = more;
    }
    return true;
  }

  private add(result: SweepResult, rule: RetentionRule, row: RetentionCounts): void {
    result.deleted[rule.table] += row.n;
    rule.children.forEach((child, i) => (result.deleted[child] += row[`c${i}`]));
  }
}
