import { open, readFile, unlink } from 'fs/promises';
import { isProcessAlive } from './process-probe';

/**
 * Runs `fn` while holding an exclusive lock file (created with O_EXCL, containing our pid).
 * A lock left by a dead process is taken over. Used so two processes starting at once do not
 * both run initdb or start a second postmaster on the same data directory.
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (!holder || !isProcessAlive(holder)) {
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${path} (held by pid ${holder})`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
