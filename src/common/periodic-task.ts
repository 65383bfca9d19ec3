import type { Logger } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import { isDatabaseUnavailable } from '../database/outage/database-failure';

/**
 * Work repeated on an interval in this process that never overlaps itself: a
 * tick is skipped while the previous run is still going, a failed run is
 * logged and the next tick tries again, and `stop()` waits for the run in
 * progress so shutdown never cuts one in half. Registered with @nestjs/schedule
 * under `name`. (Coordination between nodes is the task's own: SKIP LOCKED.)
 */
export class PeriodicTask {
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly name: string,
    private readonly scheduler: SchedulerRegistry,
    private readonly logger: Logger,
  ) {}

  start(intervalMs: number, run: () => Promise<unknown>): void {
    if (intervalMs <= 0) return;
    const timer = setInterval(() => {
      if (this.running) return;
      this.running = run()
        .catch((error: Error) => {
          // A database outage is logged once by DatabaseOutage; the next tick tries again.
          if (isDatabaseUnavailable(error)) return;
          this.logger.error({ err: error }, `${this.name} failed: ${error.message}`);
        })
        .finally(() => (this.running = null));
    }, intervalMs);
    timer.unref();
    this.scheduler.addInterval(this.name, timer);
  }

  async stop(): Promise<void> {
    if (this.scheduler.doesExist('interval', this.name)) this.scheduler.deleteInterval(this.name);
    await this.running;
  }
}
