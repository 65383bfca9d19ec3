import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import type { RequestBudget } from '../access/request-budget';
import { ApiError } from '../common/errors/api-errors';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { ApiRateCounterStore } from './api-rate-counter-store';
import { type CountedBudget, RateLimitHeaders, WindowCounter } from './window-counter';

/** Counters of ended windows are deleted this often (by whichever node flushes). */
const PURGE_EVERY_MS = 60_000;

/**
 * The every-route budgets (README "API conventions"): per caller (the user through one OAuth
 * client), per team (every team the caller belongs to) and, for requests without a valid
 * token, per client address. Judged in memory (WindowCounter); the counts go to PostgreSQL
 * every API_RATE_FLUSH_MS (with RATE_LIMIT_STORE=memory they stay in this process).
 */
@Injectable()
export class ApiRateLimiter
  implements RequestBudget, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('ApiRateLimiter');
  private readonly windowMs: number;
  private readonly counter: WindowCounter;
  private readonly headers: RateLimitHeaders;
  private readonly periodic: PeriodicTask;
  private lastPurge = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly store: ApiRateCounterStore,
    scheduler: SchedulerRegistry,
  ) {
    this.windowMs = config.apiRateWindowSeconds * 1000;
    this.counter = new WindowCounter(this.windowMs);
    this.headers = new RateLimitHeaders(config.apiRateWindowSeconds);
    this.periodic = new PeriodicTask('api-rate-flush', scheduler, this.logger);
  }

  private get shared(): boolean {
    return this.config.rateLimitStore === 'postgres';
  }

  onApplicationBootstrap(): void {
    if (this.shared) this.periodic.start(this.config.apiRateFlushMs, () => this.flush());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
    // What this node counted still counts for the others.
    if (this.shared) await this.flush().catch(() => undefined);
  }

  charge(req: Request, res: Response, principal: Principal | null): void {
    const now = Date.now();
    const budgets = principal ? this.callerBudgets(principal, now) : this.addressBudget(req, now);
    // Several teams: the headers describe the caller's budget and the tightest team's.
    this.headers.write(
      res,
      budgets.length > 2 ? [budgets[0], tightest(budgets.slice(1))] : budgets,
      now,
    );
    let allowed = true;
    for (const b of budgets) allowed = allowed && b.hit.allowed;
    if (!allowed) {
      const refused = budgets.filter((b) => !b.hit.allowed);
      const retryAfter = Math.max(
        1,
        Math.ceil((Math.max(...refused.map((b) => b.hit.resetAt)) - now) / 1000),
      );
      throw new ApiError(
        429,
        `Rate limit exceeded (${refused.map((b) => b.policy).join(', ')}); retry after ${retryAfter} seconds.`,
        { 'Retry-After': String(retryAfter) },
      );
    }
  }

  /** The caller's budget, then each of its teams' (every one is counted). */
  private callerBudgets(principal: Principal, now: number): CountedBudget[] {
    const budgets: CountedBudget[] = [
      {
        policy: 'caller',
        hit: this.counter.hit(
          `caller:${principal.userId}:${principal.clientId ?? ''}`,
          this.config.apiRateLimitPerCaller,
          now,
        ),
      },
    ];
    for (const teamId of principal.teamIds)
      budgets.push({
        policy: 'team',
        hit: this.counter.hit(`team:${teamId}`, this.config.apiRateLimitPerTeam, now),
      });
    return budgets;
  }

  private addressBudget(req: Request, now: number): CountedBudget[] {
    const key = `address:${req.ip ?? ''}`;
    return [
      { policy: 'address', hit: this.counter.hit(key, this.config.apiRateLimitPerAddress, now) },
    ];
  }

  /** Adds the counts of this node to the shared counters and reads the totals back. */
  async flush(): Promise<void> {
    const counts = this.counter.drain();
    if (counts.length > 0) {
      try {
        const totals = await this.store.add(this.dataSource, counts, this.windowMs);
        counts.forEach((c, i) => this.counter.settled(c, totals[i]));
      } catch (error) {
        for (const c of counts) this.counter.failed(c);
        throw error;
      }
    }
    const now = Date.now();
    if (now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      this.counter.forgetIdle(this.counter.windowOf(now));
      await this.store.purge(this.dataSource, now);
    }
  }
}

function tightest(budgets: CountedBudget[]): CountedBudget {
  return budgets.reduce((a, b) => (b.hit.limit - b.hit.used < a.hit.limit - a.hit.used ? b : a));
}
