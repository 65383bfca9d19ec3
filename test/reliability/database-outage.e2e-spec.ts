import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  eventually,
  killAllAppProcesses,
  startAppProcess,
  type AppProcess,
} from './support/app-process';

interface Answer {
  path: string;
  status: number;
  retryAfter: string | null;
  type: string | null;
}

/**
 * A database outage as the service sees it: its embedded PostgreSQL (its own throwaway
 * DATA_DIR, never the shared test server) killed with SIGKILL. The service answers 503 with
 * Retry-After and an error body (never 500), readiness says 503, it restarts PostgreSQL by
 * itself, answers again without help, and logs the outage once (not per request).
 */
describe('database outage (embedded PostgreSQL killed)', () => {
  let dataDir: string;
  let app: AppProcess;
  const answers: Answer[] = [];
  let postmasterBefore = 0;

  const postmaster = () =>
    Number(readFileSync(join(dataDir, 'pg', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const ask = async (path: string): Promise<Answer> => {
    const res = await fetch(`${app.url}${path}`, {
      headers: { Authorization: 'Bearer not-a-real-token', Accept: 'application/ld+json' },
      signal: AbortSignal.timeout(10_000),
    });
    const answer = {
      path,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      type:
        res.status >= 500 ? (((await res.json()) as { '@type'?: string })['@type'] ?? null) : null,
    };
    answers.push(answer);
    return answer;
  };
  /** Own log lines of the service (request lines aside). */
  const messages = () =>
    app.lines
      .map((line) => {
        try {
          return JSON.parse(line) as { msg?: string; res?: unknown; level: number };
        } catch {
          return undefined;
        }
      })
      .filter((l) => l && !l.res)
      .map((l) => l!);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'database-outage-'));
    app = await startAppProcess('service', {
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      MIGRATE_ON_START: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      CREDENTIALS_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef',
    });
    expect((await ask('/workspaces')).status).toBe(401); // the token is looked up: database up
    postmasterBefore = postmaster();

    process.kill(postmasterBefore, 'SIGKILL');
    // Requests during the outage, until the service answers normally again.
    await eventually(
      'the service answering again',
      async () => {
        const workspaces = await ask('/workspaces');
        const ready = await ask('/health/ready');
        return workspaces.status === 401 && ready.status === 200 && answers.length > 4;
      },
      60_000,
      50,
    );
  }, 180_000); // child processes start slowly on a busy 2-core machine

  afterAll(async () => {
    await app?.stop(); // a graceful stop stops the embedded PostgreSQL too
    await killAllAppProcesses();
    // Should the stop have failed, the throwaway cluster's postmaster goes too.
    try {
      process.kill(postmaster(), 'SIGKILL');
    } catch {
      // already gone
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 with Retry-After and an error body meanwhile, never 500', () => {
    const failures = answers.filter((a) => a.status >= 500);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure).toEqual({
        path: failure.path,
        status: 503,
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
        type: 'hydra:Error',
      });
    }
    expect(failures.some((a) => a.path === '/health/ready')).toBe(true);
    expect(failures.some((a) => a.path === '/workspaces')).toBe(true);
  });

  it('restarted PostgreSQL by itself and kept running', () => {
    expect(app.exited).toBe(false);
    expect(postmaster()).not.toBe(postmasterBefore);
  });

  it('logged the outage once: when it began and when it ended, no error stacks', async () => {
    // The restart line may follow the first answers by a moment.
    await app.waitForLine(/embedded PostgreSQL restarted after/, 10_000);
    await app.waitForLine(/database available again/, 10_000);
    const own = messages();
    const count = (pattern: RegExp) => own.filter((l) => pattern.test(l.msg ?? '')).length;
    expect(count(/^database unavailable/)).toBe(1);
    expect(count(/^database available again/)).toBe(1);
    expect(count(/^embedded PostgreSQL is gone/)).toBe(1);
    expect(count(/^embedded PostgreSQL restarted/)).toBe(1);
    expect(own.filter((l) => l.level >= 50)).toEqual([]);
  });
});
