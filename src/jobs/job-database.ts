import { Pool, type PoolConfig, type QueryResult } from 'pg';
import type PgBoss from 'pg-boss';

const REFUSED = Symbol('refused: the job queue is stopping');

/**
 * The answer to a statement refused because the queue is stopping: pg-boss 10 reads a result
 * without `rows` as no job fetched (`fetch`) and none affected (`complete`, `fail`).
 */
function refused(): QueryResult {
  return { [REFUSED]: true } as unknown as QueryResult;
}

/** Whether `result` is a refusal of a stopping queue (JobDatabase.executeSql). */
export function isRefused(result: unknown): boolean {
  return typeof result === 'object' && result !== null && REFUSED in result;
}

/**
 * pg-boss's connections (given to it as its `db`): a pool the job queue owns and closes itself,
 * only once no statement of pg-boss's waits on it.
 *
 * pg-boss 10 ends a pool of its own as soon as its workers are told to stop, without waiting
 * for a worker whose poll is still queued for a connection (8 workers polling every second on
 * 4 connections). node-postgres never answers a request queued when `end()` is called, so that
 * worker never stops, and pg-boss checks on it every second forever: the process stayed alive
 * after the application closed. `close()` refuses statements that do not have a connection yet,
 * lets the ones already queued or running settle, and then ends the pool.
 */
export class JobDatabase implements PgBoss.Db {
  private readonly pool: Pool;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;

  /** `onError`: errors of idle connections (the server went away), which the pool emits. */
  constructor(config: PoolConfig, onError: (error: Error) => void) {
    this.pool = new Pool(config);
    this.pool.on('error', onError);
  }

  /**
   * A statement, or once `close()` began a refusal. pg-boss awaits a refused poll (its worker
   * then stops) but reports a handler's end (`complete`, `fail`) with a statement nobody
   * awaits: a handler that outlives the stop's grace ends after the pool closed, and a
   * rejected report, unhandled, ended the process (a whole test run once). Its jobs were
   * failed at the stop (pg-boss's `failWip`, retried as their queue says), so a statement
   * refused while closing answers `refused` (no rows: no job fetched, none affected) instead
   * of failing; `isRefused` tells it apart. Nothing of ours sends once the queue stops
   * (JobQueue.requireBoss throws).
   */
  executeSql(text: string, values?: unknown[]): Promise<QueryResult> {
    const statement = this.run(text, values);
    this.inFlight.add(statement);
    const forget = () => void this.inFlight.delete(statement);
    statement.then(forget, forget);
    return statement;
  }

  /** Refuses new statements, waits for those in flight, then closes every connection. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.pool.end();
  }

  private async run(text: string, values?: unknown[]): Promise<QueryResult> {
    if (this.closing) return refused();
    const client = await this.pool.connect();
    // Got a connection only after stop began (a worker's poll): fetch no job nobody will run.
    if (this.closing) {
      client.release();
      return refused();
    }
    try {
      const result = await client.query(text, values);
      client.release();
      return result;
    } catch (error) {
      // As pg-pool's own query(): a connection whose statement failed is not reused.
      client.release(error as Error);
      throw error;
    }
  }
}
