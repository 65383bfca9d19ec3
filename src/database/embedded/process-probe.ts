import { readFileSync } from 'fs';

/**
 * True when a process with this pid exists (EPERM: it exists but belongs to another user).
 * A zombie (killed, not yet reaped, common in containers without an init) counts as dead.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * True when `pid` is alive and looks like a PostgreSQL server. After a reboot or in a container
 * a stale postmaster.pid often names a pid that now belongs to something else; PostgreSQL would
 * then refuse to start ("lock file already exists"), so we must not trust aliveness alone.
 */
export function isPostgresProcess(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /postgres/.test(cmdline);
  } catch {
    // No procfs (macOS): aliveness is the best we can do.
    return true;
  }
}

/** Waits until the process is gone; false on timeout. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
