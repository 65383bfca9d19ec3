import { Pool, type PoolConfig, type QueryResult } from 'pg';
import type PgBoss from 'pg-boss';

/** A statement the job queue's pool refused because the queue is stopping. */
export class JobDatabaseClosedError extends Error {
  override readonly name = 'JobDatabaseClosedError';
  constructor() {
    super('the job queue is stopping');
  }
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
    if (this.closing) throw new JobDatabaseClosedError();
    const client = await this.pool.connect();
    // Got a connection only after stop began (a worker's poll): fetch no job nobody will run.
    if (this.closing) {
      client.release();
      throw new JobDatabaseClosedError();
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
