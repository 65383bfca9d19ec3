import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { poolOf } from '../../database/query';
import { AppConfig } from '../../config/app-config';
import { PeriodicTask } from '../../common/periodic-task';
import { COMPACT_AFTER_DELTAS } from './maintained-counts';
import { SWEEP_COUNTS_SQL, VACUUM_COUNTS_SQL } from './maintained-counts.sql';

const INTERVAL_MS = 60_000;
const KEYS_PER_SWEEP = 10_000;

/**
 * Reads fold the keys they sum (DataProvider); this folds the keys nobody reads, once a
 * minute on nodes that run background work (JOB_WORKERS_ENABLED), so that writes alone never
 * grow `maintained_count` without bound. Safe on several nodes at once (see SWEEP_COUNTS_SQL).
 */
@Injectable()
export class MaintainedCountSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MaintainedCountSweeper.name);
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    scheduler: SchedulerRegistry,
  ) {
    this.periodic = new PeriodicTask('maintained-count-sweep', scheduler, this.logger);
  }

  onApplicationBootstrap(): void {
    if (this.config.jobWorkersEnabled) this.periodic.start(INTERVAL_MS, () => this.sweep());
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /**
   * One fold of every key with many delta rows, then a VACUUM of the table; answers the rows
   * written. Every fold (here or by a reader) leaves the folded rows dead in the key's index
   * range, where they stay until a vacuum: a key read on every write (the plans' monthly
   * volume, read by each create) would walk a minute of creates' dead entries without it.
   */
  async sweep(): Promise<number> {
    const pool = poolOf(this.dataSource);
    try {
      const { rowCount } = await pool.query(SWEEP_COUNTS_SQL, [
        COMPACT_AFTER_DELTAS,
        KEYS_PER_SWEEP,
      ]);
      await pool.query(VACUUM_COUNTS_SQL);
      return rowCount ?? 0;
    } catch (error) {
      // A database without maintained counts (before the migration) has nothing to fold.
      if ((error as { code?: string }).code === '42P01') return 0;
      throw error;
    }
  }
}
