export type SupervisorLog = (level: 'info' | 'warn', message: string) => void;

/** What the supervisor needs from the server it watches. */
export interface SupervisedServer {
  /** Whether the postmaster still runs (checked every `checkIntervalMs`). */
  running(): boolean;
  /** Why it is gone, as far as can be told (exit status, last lines of its log). */
  exitReason(): Promise<string>;
  /** Starts it again on the same port and data directory; rejects when it did not come up. */
  restart(): Promise<void>;
}

export interface SupervisorOptions {
  checkIntervalMs?: number;
  /** Waits between failed restarts; the last one repeats. */
  backoffMs?: readonly number[];
}

const DEFAULT_BACKOFF_MS = [0, 250, 500, 1000, 2000, 5000, 10_000];

/**
 * Keeps the embedded PostgreSQL running while the service runs: when the postmaster is gone
 * (killed, crashed, stopped by hand) it is started again, with backoff between failed
 * attempts (e.g. while orphaned backends of a killed postmaster still hold its shared
 * memory), logging why it went and when it is back. The pool reconnects by itself; requests
 * meanwhile get 503 (see DatabaseOutage). `check()` may be called early by anyone who saw it
 * go (the sentinel connection closing).
 */
export class PostgresSupervisor {
  private timer: NodeJS.Timeout | undefined;
  private recovering: Promise<void> | null = null;
  private stopped = false;
  private readonly checkIntervalMs: number;
  private readonly backoffMs: readonly number[];
  /** Restarts done so far (for logs and tests). */
  restarts = 0;

  constructor(
    private readonly server: SupervisedServer,
    private readonly log: SupervisorLog,
    options: SupervisorOptions = {},
  ) {
    this.checkIntervalMs = options.checkIntervalMs ?? 500;
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  }

  start(): void {
    this.timer = setInterval(() => this.check(), this.checkIntervalMs);
    this.timer.unref();
  }

  /** Starts a recovery when the server is gone; answers the recovery in progress, if any. */
  check(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!this.recovering && !this.server.running()) {
      this.recovering = this.recover().finally(() => (this.recovering = null));
    }
    return this.recovering ?? Promise.resolve();
  }

  /** No more restarts; waits for one in progress (so shutdown can then stop the server). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.recovering;
  }

  private async recover(): Promise<void> {
    const since = Date.now();
    const reason = await this.server.exitReason().catch(() => 'unknown reason');
    this.log('warn', `embedded PostgreSQL is gone (${reason}); restarting it`);
    for (let attempt = 1; !this.stopped; attempt++) {
      const wait = this.backoffMs[Math.min(attempt - 1, this.backoffMs.length - 1)];
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.stopped) return;
      try {
        await this.server.restart();
        this.restarts++;
        const seconds = ((Date.now() - since) / 1000).toFixed(1);
        // A warning like the line that announced the outage, so both show at any log level.
        this.log('warn', `embedded PostgreSQL restarted after ${seconds} s (attempt ${attempt})`);
        return;
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        this.log('warn', `embedded PostgreSQL restart attempt ${attempt} failed: ${message}`);
      }
    }
  }
}
