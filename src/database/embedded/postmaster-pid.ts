import { readFile } from 'fs/promises';

/** The parts of PostgreSQL's `postmaster.pid` lock file we rely on. */
export interface PostmasterPid {
  pid: number;
  dataDir: string;
  port: number;
  /** `starting`, `ready`, `stopping` or `standby` once the server wrote it; '' before. */
  status: string;
}

/**
 * Parses `postmaster.pid` (line 1 pid, 2 data dir, 3 start time, 4 port, 5 socket dir,
 * 6 listen address, 7 shared memory key, 8 status). Returns undefined for a truncated or
 * garbled file, which is then treated as stale.
 */
export function parsePostmasterPid(text: string): PostmasterPid | undefined {
  const lines = text.split('\n');
  const pid = Number(lines[0]?.trim());
  const port = Number(lines[3]?.trim());
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) {
    return undefined;
  }
  return { pid, dataDir: lines[1]?.trim() ?? '', port, status: lines[7]?.trim() ?? '' };
}

export async function readPostmasterPid(
  file: string,
): Promise<PostmasterPid | 'garbled' | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parsePostmasterPid(text) ?? 'garbled';
}

export type PostmasterState =
  | { kind: 'none' }
  /** A lock file without its server (unclean stop, reboot, or pid reused by another program). */
  | { kind: 'stale' }
  | { kind: 'running'; pid: number; port: number };

/** What a data directory's postmaster.pid says, given a probe for "is pid a PostgreSQL". */
export function classifyPostmaster(
  pidFile: PostmasterPid | 'garbled' | undefined,
  isPostgres: (pid: number) => boolean,
): PostmasterState {
  if (pidFile === undefined) return { kind: 'none' };
  if (pidFile === 'garbled' || !isPostgres(pidFile.pid)) return { kind: 'stale' };
  return { kind: 'running', pid: pidFile.pid, port: pidFile.port };
}
