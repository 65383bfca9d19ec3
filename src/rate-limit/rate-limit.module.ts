import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { PeriodicTask } from '../common/periodic-task';
import { MemoryThrottlerStorage } from './memory-throttler-storage';
import { PostgresThrottlerStorage } from './postgres-throttler-storage';
import { RateBudgets } from './rate-budget';
import { RateLimitCounterStore } from './rate-limit-counter-store';
import { RATE_LIMIT_STORAGE } from './rate-limit-storage.token';
import { REQUEST_BUDGET } from '../access/request-budget';
import { ApiRateCounterStore } from './api-rate-counter-store';
import { ApiRateLimiter } from './api-rate-limiter';

export { RATE_LIMIT_STORAGE };

const PURGE_INTERVAL_NAME = 'rate-limit-purge';
/** As often as the in-memory storage sweeps its idle records. */
const PURGE_INTERVAL_MS = 60_000;

/** Deletes idle counters of the PostgreSQL storage on every node (cheap: the table is small). */
@Injectable()
export class RateLimitPurger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimitPurger');
  private periodicTask?: PeriodicTask;

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  private get periodic(): PeriodicTask {
    return (this.periodicTask ??= new PeriodicTask(
      PURGE_INTERVAL_NAME,
      this.scheduler,
      this.logger,
    ));
  }

  onApplicationBootstrap(): void {
    const storage = this.storage;
    if (storage instanceof PostgresThrottlerStorage) {
      this.periodic.start(PURGE_INTERVAL_MS, () => storage.purgeExpired());
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }
}

/**
 * RATE_LIMIT_STORE picks the storage: `postgres` (table rate_limit_counter, one budget for
 * all nodes) or `memory` (@nestjs/throttler's ThrottlerStorageService, per process).
 * Global: the AccessGuard charges every request to its REQUEST_BUDGET (ApiRateLimiter).
 */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [AppConfig, DataSource, RateLimitCounterStore],
      useFactory: (
        config: AppConfig,
        dataSource: DataSource,
        counters: RateLimitCounterStore,
      ): ThrottlerStorage =>
        config.rateLimitStore === 'memory'
          ? new MemoryThrottlerStorage()
          : new PostgresThrottlerStorage(dataSource, {}, counters),
    },
    RateLimitCounterStore,
    RateLimitPurger,
    RateBudgets,
    ApiRateCounterStore,
    ApiRateLimiter,
    { provide: REQUEST_BUDGET, useExisting: ApiRateLimiter },
  ],
  exports: [RATE_LIMIT_STORAGE, RateBudgets, REQUEST_BUDGET, ApiRateLimiter],
})
export class RateLimitModule {}
