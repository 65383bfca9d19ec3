import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { ShipmentPredictionStore } from '../shipments/shipment-prediction-store';
import { Clock } from '../tracking/clock';
import { CarrierPerformanceStore } from './carrier-performance-store';
import { PredictionStore } from './prediction-store';
import { PredictionWriter } from './prediction-writer';

const INTERVAL_MS = 60_000;
/** Shipments per transaction: short transactions, few statements each. */
const BATCH = 500;
/** At most this many batches a tick; the rest waits for the next one. */
const MAX_BATCHES = 40;

/**
 * The time rules of attention (stalled, late, waiting start without any new checkpoint):
 * once a minute on nodes that run background work (JOB_WORKERS_ENABLED), claims the shipments
 * whose `attention_check_at` has passed (FOR UPDATE SKIP LOCKED: several nodes share the work,
 * a shipment being written is taken next time), re-evaluates their attention and records the
 * events of what started. Then folds every prediction aggregate key with more than one delta
 * row (readers fold only past 32; carrier performance folds every delta row), as MaintainedCountSweeper does for counts.
 */
@Injectable()
export class AttentionSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AttentionSweeper.name);
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly shipments: ShipmentPredictionStore,
    private readonly writer: PredictionWriter,
    private readonly stats: PredictionStore,
    private readonly performance: CarrierPerformanceStore,
    scheduler: SchedulerRegistry,
  ) {
    this.periodic = new PeriodicTask('attention-sweep', scheduler, this.logger);
  }

  onApplicationBootstrap(): void {
    if (this.config.jobWorkersEnabled) this.periodic.start(INTERVAL_MS, () => this.sweep());
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** One pass: answers how many shipments were re-evaluated. */
  async sweep(now: Date = this.clock.now()): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = await this.db.transaction(async (em) => {
        const ids = await this.shipments.claimAttentionDue(em, now, BATCH);
        await this.writer.recheckAttention(em, ids, now);
        return ids.length;
      });
      total += n;
      if (n < BATCH) break;
    }
    // Every key written since the last pass folds to one row: reads (the tracking writer's
    // stats, the carrier analytics) then read about one row per key, whatever the volume;
    // carrier performance folds even a single delta row (its folded form is the cheap one).
    await this.stats.sweepStats(1);
    await this.performance.sweep(0);
    return total;
  }
}
