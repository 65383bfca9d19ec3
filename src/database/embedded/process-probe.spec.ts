import { spawn } from 'child_process';
import { isPostgresProcess, isProcessAlive, waitForExit } from './process-probe';

describe('process probes (stale postmaster.pid detection)', () => {
  it('sees this process alive and a finished one dead', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.on('exit', resolve));
    expect(isProcessAlive(child.pid!)).toBe(false);
  });

  it('does not mistake a live non-PostgreSQL process for a postmaster', () => {
    // The classic stale pid file: its pid was reused by some other program.
    expect(isPostgresProcess(process.pid)).toBe(false);
  });

  it('treats a pid that never existed as no postmaster', () => {
    expect(isPostgresProcess(2 ** 22 + 17)).toBe(false);
  });

  it('waits for a process to exit, with a timeout', async () => {
    // Lives until killed: a child timed to exit by itself may die within the first wait on a
    // loaded machine (CI of 2026-11-30 saw it).
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    expect(await waitForExit(child.pid!, 10)).toBe(false);
    child.kill();
    expect(await waitForExit(child.pid!, 5000)).toBe(true);
  });
});
