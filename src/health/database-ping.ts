import type { DataSource } from 'typeorm';

/** `SELECT 1` through the pool, failing after `timeoutMs` (a pool wait included). */
export async function pingDatabase(dataSource: DataSource, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const ping = dataSource.query('SELECT 1');
  ping.catch(() => undefined); // may fail after the timeout won: not an unhandled rejection
  try {
    await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
