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
  try {
    await Promise.race([dataSource.query('SELECT 1'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
