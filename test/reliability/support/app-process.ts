import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findFreePort } from '../../../src/database/embedded/free-port';

const ROOT = join(__dirname, '..', '..', '..');
const BUILT_MAIN = join(ROOT, 'dist', 'src', 'main.js');

/**
 * How to run the real service in a child process: the build in dist/ when it is at least as
 * new as every source file (CI builds before testing), else ts-node in transpile-only mode.
 */
export function appCommand(): string[] {
  if (existsSync(BUILT_MAIN) && statSync(BUILT_MAIN).mtimeMs >= newestSource(join(ROOT, 'src'))) {
    return [BUILT_MAIN];
  }
  return ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src', 'main.ts')];
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export interface AppProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Every line the process wrote (stdout and stderr), in order. */
  readonly lines: string[];
  /** Resolves with the first line matching `pattern` (already written or to come). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGKILL: no shutdown hook runs, as in a crash. Resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM and wait for the exit (graceful stop). */
  stop(): Promise<void>;
  readonly exited: boolean;
}

const running = new Set<ChildProcess>();

/**
 * Starts the service as a child process on a free port (or env.PORT) with `env` (on top of
 * this process's environment; an undefined value unsets the variable) and waits until /health/ready answers 200. Every process started here is
 * killed by killAllAppProcesses() (call it in afterAll, it runs on failures too).
 */
export async function startAppProcess(
  name: string,
  env: Record<string, string | undefined>,
  readyTimeoutMs = 90_000,
): Promise<AppProcess> {
  const port = env.PORT ? Number(env.PORT) : await findFreePort('127.0.0.1');
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'false',
    HOST: '127.0.0.1',
    ...env,
    PORT: String(port),
  };
  // A variable given as undefined is unset in the child (e.g. DATABASE_URL: embedded server).
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  const child = spawn(process.execPath, appCommand(), {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let exited = false;
  const onData = (stream: NodeJS.ReadableStream) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        for (const waiter of [...waiters]) {
          if (waiter.pattern.test(line)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(line);
          }
        }
      }
    });
  };
  onData(child.stdout!);
  onData(child.stderr!);
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      running.delete(child);
      resolve();
    }),
  );

  const waitForLine = (pattern: RegExp, timeoutMs = 30_000): Promise<string> => {
    const seen = lines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`${name}: no line matching ${pattern} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = {
        pattern,
        resolve: (line: string) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      waiters.push(waiter);
    });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited) {
      throw new Error(`${name} exited during start-up:\n${lines.slice(-30).join('\n')}`);
    }
    const ready = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) })
      .then((res) => res.status === 200)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `${name} not ready within ${readyTimeoutMs} ms:\n${lines.slice(-30).join('\n')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const signal = async (sig: NodeJS.Signals, timeoutMs: number) => {
    if (exited) return;
    child.kill(sig);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([exit, timeout]);
    clearTimeout(timer);
    if (!exited) {
      child.kill('SIGKILL');
      await exit;
    }
  };
  return {
    name,
    url,
    pid: child.pid!,
    lines,
    waitForLine,
    crash: () => signal('SIGKILL', 10_000),
    stop: () => signal('SIGTERM', 15_000),
    get exited() {
      return exited;
    },
  };
}

/** Kills (SIGKILL) every app process still running; for afterAll. */
export async function killAllAppProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Polls `probe` until it answers a truthy value; fails after `timeoutMs` naming `what`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
