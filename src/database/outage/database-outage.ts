import { AsyncResource } from 'node:async_hooks';
import { Client } from 'pg';
import { classifyDatabaseFailure, type DatabaseFailure } from './database-failure';

export interface OutageLog {
  warn(message: string): void;
  log(message: string): void;
}

/** Answers whether the database serves queries now (a fresh connection and `SELECT 1`). */
export type DatabaseProbe = () => Promise<void>;

export interface DatabaseOutageOptions {
  /** Probe period while the database is down. */
  probeIntervalMs?: number;
  /** Least time between two "busy" warnings (pool or statement timeouts). */
  busyLogIntervalMs?: number;
}

/**
 * Knows whether PostgreSQL is down, so an outage is logged once (one line when it starts, one
 * when it ends) instead of a stack per request, and readiness answers 503 at once meanwhile.
 *
 * Requests, pool errors and background work `report()` their failures. A failure that says
 * "unavailable" starts a probe on a connection of its own (not the pool's, which may be
 * exhausted): when the probe fails too, the outage begins and the probe repeats until the
 * database answers again; a probe that succeeds at once means only that connection broke
 * (logged as a warning). Nothing here blocks requests: they keep trying the pool, which
 * reconnects by itself, so service resumes as soon as the database is back.
 */
export class DatabaseOutage {
  private downSince: number | null = null;
  private failedRequests = 0;
  private probing: Promise<void> | null = null;
  private lastBusyLog = 0;
  private busySinceLog = 0;
  private stopped = false;
  private readonly probeIntervalMs: number;
  private readonly busyLogIntervalMs: number;
  /**
   * The async context this monitor was made in (start-up, no request): the watch runs there,
   * so its log lines do not carry the request that happened to notice the outage first.
   */
  private readonly scope = new AsyncResource('DatabaseOutage');

  constructor(
    private readonly probe: DatabaseProbe,
    private readonly logger: OutageLog,
    options: DatabaseOutageOptions = {},
  ) {
    this.probeIntervalMs = options.probeIntervalMs ?? 250;
    this.busyLogIntervalMs = options.busyLogIntervalMs ?? 10_000;
  }

  /**
   * A connection of its own to `url` that runs `SELECT 1`; fails after `timeoutMs` whatever
   * the server does (accepts and never answers, half-closed sockets). The connection is
   * closed without waiting: ending a client whose socket already died may never settle.
   */
  static probeOf(url: string, timeoutMs = 1000): DatabaseProbe {
    return async () => {
      const client = new Client({
        connectionString: url,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
        application_name: 'shipment-tracking-probe',
      });
      client.on('error', () => undefined); // the server went away under the probe
      let timer: NodeJS.Timeout | undefined;
      const attempt = client.connect().then(() => client.query('SELECT 1'));
      attempt.catch(() => undefined); // settles after the timeout won: not unhandled
      try {
        await Promise.race([
          attempt,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('the probe timed out')), timeoutMs + 500);
          }),
        ]);
      } finally {
        clearTimeout(timer);
        void client.end().catch(() => undefined);
      }
    };
  }

  get isDown(): boolean {
    return this.downSince !== null;
  }

  /** Seconds since the outage began (0 when up). */
  get downForSeconds(): number {
    return this.downSince === null ? 0 : (Date.now() - this.downSince) / 1000;
  }

  /**
   * Records a failure; answers its kind, or null for an error that is not the database's
   * state (the caller handles those as before).
   */
  report(error: unknown, origin: 'request' | 'background' = 'request'): DatabaseFailure | null {
    const failure = classifyDatabaseFailure(error);
    if (failure === null) return null;
    if (failure === 'busy') {
      this.busy(error);
      return failure;
    }
    if (!this.probing && !this.stopped) {
      this.failedRequests = 0;
      const reason = describe(error);
      this.probing = this.scope
        .runInAsyncScope(() => this.watch(reason))
        .finally(() => (this.probing = null));
    }
    if (origin === 'request') this.failedRequests++;
    return failure;
  }

  /** Stops probing (shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.probing;
  }

  private async watch(reason: string): Promise<void> {
    if (await this.answers()) {
      this.logger.warn(`a database connection failed (${reason}) but the database answers`);
      return;
    }
    this.downSince = Date.now();
    this.logger.warn(
      `database unavailable (${reason}): answering 503 with Retry-After until it is back`,
    );
    while (!this.stopped) {
      await new Promise((resolve) => setTimeout(resolve, this.probeIntervalMs).unref());
      if (await this.answers()) {
        const seconds = this.downForSeconds.toFixed(1);
        const requests = this.failedRequests;
        this.downSince = null;
        this.failedRequests = 0;
        // Same level as the outage line, so whoever sees one sees the other.
        this.logger.warn(
          `database available again after ${seconds} s (${requests} request(s) answered 503 meanwhile)`,
        );
        return;
      }
    }
  }

  private async answers(): Promise<boolean> {
    try {
      await this.probe();
      return true;
    } catch {
      return false;
    }
  }

  private busy(error: unknown): void {
    this.busySinceLog++;
    const now = Date.now();
    if (now - this.lastBusyLog < this.busyLogIntervalMs) return;
    this.logger.warn(
      `database busy: ${this.busySinceLog} request(s) answered 503 (last: ${describe(error)})`,
    );
    this.lastBusyLog = now;
    this.busySinceLog = 0;
  }
}

function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return code ? `${String(code)}: ${message}` : message;
}
