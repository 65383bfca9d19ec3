/**
 * Fault injection under load (see bench/README.md, "Faults"): the service on a throwaway
 * embedded PostgreSQL (its own DATA_DIR; never the machine's shared server), a closed-loop
 * load of `POST /shipments`, then
 *   1. PostgreSQL killed (SIGKILL of the postmaster): the service must answer 503 with
 *      Retry-After (no 500), restart PostgreSQL by itself, and serve again at once;
 *   2. the service process killed (SIGKILL) and started again (as systemd would);
 * and at the end every acknowledged write (201) must be in the database.
 *
 *   node -r ts-node/register/transpile-only bench/fault-injection.ts [--connections 16] [--phase-seconds 3]
 *
 * Prints requests answered, answers by status (5xx by code), acknowledged writes lost, the
 * outage and recovery times; exits 1 when a target is missed.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { startAppProcess, type AppProcess } from '../test/reliability/support/app-process';

const execFileAsync = promisify(execFile);

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const CONNECTIONS = option('connections', 16);
const PHASE_MS = option('phase-seconds', 3) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  at: number;
  status: number; // 0: no HTTP answer (connection refused or reset)
  retryAfter?: string;
  id?: string;
}

const dataDir = mkdtempSync(join(tmpdir(), 'fault-injection-'));
const env: Record<string, string | undefined> = {
  DATA_DIR: dataDir,
  DATABASE_URL: undefined, // the embedded PostgreSQL
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'true',
  CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  BILLING_ENFORCE_ENTITLEMENTS: 'false',
};

/** Credentials and port of the embedded server, from its files. */
function embedded(): { url: string; pid: number } {
  const pg = join(dataDir, 'pg');
  const creds = JSON.parse(readFileSync(join(pg, 'credentials.json'), 'utf8'));
  const lines = readFileSync(join(pg, 'data', 'postmaster.pid'), 'utf8').split('\n');
  return {
    pid: Number(lines[0]),
    url: `postgres://${creds.user}:${encodeURIComponent(creds.password)}@127.0.0.1:${lines[3].trim()}/${creds.database}`,
  };
}

async function databaseAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 500 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function bootstrapToken(): Promise<{ token: string; workspaceId: string }> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      'src/cli/main.ts',
      'bootstrap',
      '--email',
      'fault@example.test',
      '--password',
      'a long password for the fault run',
    ],
    { env: { ...process.env, ...env, DATABASE_URL: '' }, cwd: join(__dirname, '..') },
  );
  const creds = JSON.parse(stdout.slice(stdout.indexOf('{')));
  const res = await fetch(
    `${creds.token_url}?grant_type=client_credentials&client_id=${creds.client_id}&client_secret=${creds.client_secret}`,
  );
  const body = (await res.json()) as { access_token: string };
  return { token: body.access_token, workspaceId: creds.workspace_id };
}

async function main(): Promise<void> {
  let app: AppProcess = await startAppProcess('service', env, 180_000);
  const port = new URL(app.url).port;
  env.PORT = port; // the restarted service keeps its address
  const { token, workspaceId } = await bootstrapToken();

  const answers: Answer[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let running = true;
  let sequence = 0;
  const post = () =>
    new Promise<void>((resolve) => {
      const body = JSON.stringify({
        workspace: `/workspaces/${workspaceId}`,
        trackingNumber: `TM102FAULT${process.pid}X${++sequence}TM`,
      });
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/shipments',
          method: 'POST',
          agent,
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            Accept: 'application/json',
          },
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const answer: Answer = { at: Date.now(), status: res.statusCode ?? 0 };
            if (res.headers['retry-after']) answer.retryAfter = String(res.headers['retry-after']);
            if (res.statusCode === 201) answer.id = JSON.parse(Buffer.concat(chunks).toString()).id;
            answers.push(answer);
            resolve();
          });
        },
      );
      req.on('error', async () => {
        answers.push({ at: Date.now(), status: 0 });
        await sleep(20); // a refused connection fails at once: do not spin
        resolve();
      });
      req.end(body);
    });
  const load = Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (running) await post();
    }),
  );

  // Phase 1: PostgreSQL killed; the service restarts it.
  await sleep(PHASE_MS);
  const before = embedded();
  const killedAt = Date.now();
  process.kill(before.pid, 'SIGKILL');
  let backAt = 0;
  while (Date.now() - killedAt < 60_000) {
    await sleep(50);
    try {
      const now = embedded();
      if (now.pid !== before.pid && (await databaseAnswers(now.url))) {
        backAt = Date.now();
        break;
      }
    } catch {
      // postmaster.pid not written yet
    }
  }
  const restartedBySelf = backAt > 0;
  await sleep(PHASE_MS);
  const survived = !app.exited;
  if (!survived) {
    console.error(
      `the service died during the outage; its last lines:\n${app.lines.slice(-40).join('\n')}`,
    );
  }

  // Phase 2: the service killed and started again.
  const firstLog = [...app.lines];
  const processKilledAt = Date.now();
  await app.crash();
  app = await startAppProcess('service (restarted)', env, 180_000);
  const serviceBackAt = Date.now();
  await sleep(PHASE_MS);
  running = false;
  await load;
  agent.destroy();

  // Every acknowledged write must be there.
  const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.id!);
  const db = new Client({ connectionString: embedded().url });
  await db.connect();
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM shipment WHERE id = ANY($1::uuid[])',
    [acknowledged],
  );
  await db.end();
  const lost = acknowledged.length - rows[0].n;

  const outage = answers.filter((a) => a.at >= killedAt && a.at < (backAt || Infinity));
  const firstSuccessAfterBack = answers.find((a) => a.at >= backAt && a.status === 201);
  const recoverySeconds = firstSuccessAfterBack ? (firstSuccessAfterBack.at - backAt) / 1000 : NaN;
  const byStatus = new Map<string, number>();
  for (const a of answers) {
    const key = a.status === 0 ? 'no answer' : String(a.status);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }
  const fiveHundreds = answers.filter((a) => a.status >= 500);
  const withoutRetryAfter = fiveHundreds.filter((a) => a.status !== 503 || !a.retryAfter);
  // The first process's own log lines (request lines aside) from the kill of PostgreSQL on.
  const messages = firstLog
    .map((line) => {
      try {
        return JSON.parse(line) as { level: number; msg?: string; res?: unknown; time: number };
      } catch {
        return undefined;
      }
    })
    .filter((l) => l && !l.res && l.time >= killedAt);
  const logged = (pattern: RegExp) => messages.filter((l) => pattern.test(l!.msg ?? '')).length;

  const report = {
    connections: CONNECTIONS,
    requests: answers.length,
    answered: answers.filter((a) => a.status !== 0).length,
    byStatus: Object.fromEntries([...byStatus].sort()),
    fiveHundredsByCode: Object.fromEntries(
      [...new Set(fiveHundreds.map((a) => a.status))].map((s) => [
        s,
        fiveHundreds.filter((a) => a.status === s).length,
      ]),
    ),
    fiveHundredsWithoutRetryAfter: withoutRetryAfter.length,
    acknowledgedWrites: acknowledged.length,
    acknowledgedWritesLost: lost,
    databaseOutage: {
      serviceSurvived: survived,
      embeddedRestartedBySelf: restartedBySelf,
      secondsUntilDatabaseBack: backAt ? (backAt - killedAt) / 1000 : null,
      answersDuringOutage: Object.fromEntries(
        [...new Set(outage.map((a) => a.status))].map((s) => [
          s,
          outage.filter((a) => a.status === s).length,
        ]),
      ),
      secondsToRecoverAfterDatabaseBack: recoverySeconds,
      logLines: {
        total: messages.length,
        errorLevel: messages.filter((l) => l!.level >= 50).length,
        databaseUnavailable: logged(/^database unavailable/),
        databaseAvailableAgain: logged(/^database available again/),
        embeddedGone: logged(/^embedded PostgreSQL is gone/),
        embeddedRestarted: logged(/^embedded PostgreSQL restarted/),
      },
    },
    processKill: {
      secondsUntilServiceReady: (serviceBackAt - processKilledAt) / 1000,
    },
  };
  console.log(JSON.stringify(report, null, 2));

  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const misses = [
    lost > 0 && `${lost} acknowledged writes lost`,
    (byStatus.get('500') ?? 0) > 0 && `${byStatus.get('500')} answers 500`,
    withoutRetryAfter.length > 0 && `${withoutRetryAfter.length} 5xx without 503 + Retry-After`,
    !survived && 'the service died during the database outage',
    !restartedBySelf && 'embedded PostgreSQL not restarted by the service',
    !(recoverySeconds <= 2) && `recovery took ${recoverySeconds} s (target 2 s)`,
  ].filter(Boolean);
  if (misses.length) {
    console.error(`FAILED: ${misses.join('; ')}`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
