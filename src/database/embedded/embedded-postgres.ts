import { execFile, spawn } from 'child_process';
import { randomBytes } from 'crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'fs/promises';
import { readFileSync } from 'fs';
import { dirname, join } from 'path';
import { Client } from 'pg';
import { promisify } from 'util';
import { withFileLock } from './file-lock';
import { findFreePort } from './free-port';
import { importEmbeddedPostgres, locatePostgresBinaries } from './postgres-binaries';
import { classifyPostmaster, parsePostmasterPid, readPostmasterPid } from './postmaster-pid';
import { PostgresSupervisor } from './postgres-supervisor';
import { isPostgresProcess, isProcessAlive, waitForExit } from './process-probe';
import { hydrateSymlinks } from './symlink-hydration';

const execFileAsync = promisify(execFile);
const HOST = '127.0.0.1';

export type EmbeddedLog = (level: 'debug' | 'info' | 'warn', message: string) => void;

export interface EmbeddedPostgresConfig {
  /** Holds `data/` (PGDATA), `credentials.json`, `owner.json`, `postgres.log`, `start.lock`. */
  baseDir: string;
  /** Application database created on first start. */
  database?: string;
  /** false: fsync off etc. (throwaway test clusters). */
  durable?: boolean;
  log?: EmbeddedLog;
  /**
   * Restart the server when it exits while this handle is held (the service does; the CLI
   * and test clusters do not). See PostgresSupervisor.
   */
  supervise?: boolean;
}

/**
 * How this process got its server: it `started` it, `reused` one another live process owns
 * (e.g. the CLI while the API runs), or `adopted` one left running by a process that died
 * (kill -9), which it now owns.
 */
export type EmbeddedOrigin = 'started' | 'reused' | 'adopted';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  dataDir: string;
  database: string;
  origin: EmbeddedOrigin;
  /**
   * Gives the server back. The last user stops it: a process stops the server unless another
   * live process owns it or other clients are still connected (they stop it when they leave).
   */
  release(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
  database: string;
  initialisedAt: string;
}

const active = new Set<EmbeddedPostgresHandle>();

/** Releases every handle of this process (used on fatal start-up errors). */
export async function releaseAllEmbeddedPostgres(): Promise<void> {
  await Promise.all([...active].map((h) => h.release().catch(() => undefined)));
}

export function embeddedPaths(baseDir: string) {
  return {
    baseDir,
    dataDir: join(baseDir, 'data'),
    credentials: join(baseDir, 'credentials.json'),
    owner: join(baseDir, 'owner.json'),
    log: join(baseDir, 'postgres.log'),
    lock: join(baseDir, 'start.lock'),
    postmasterPid: join(baseDir, 'data', 'postmaster.pid'),
  };
}

/** Starts (or reuses / adopts) the embedded PostgreSQL of `baseDir` and returns a handle. */
export async function startEmbeddedPostgres(
  config: EmbeddedPostgresConfig,
): Promise<EmbeddedPostgresHandle> {
  const log: EmbeddedLog = config.log ?? (() => undefined);
  const paths = embeddedPaths(config.baseDir);
  const runAs = await postgresUser();
  await mkdir(paths.baseDir, { recursive: true, mode: 0o755 });
  if (runAs) await ensureTraversable(paths.baseDir, log);

  return withFileLock(paths.lock, async () => {
    const binaries = locatePostgresBinaries();
    const linked = await hydrateSymlinks(binaries.packageRoot).catch((error) => {
      log('warn', `could not recreate PostgreSQL library links: ${error.message}`);
      return [];
    });
    if (linked.length) log('info', `recreated ${linked.length} PostgreSQL library links`);

    const credentials = await ensureInitialised(paths, config.database ?? 'tracking', log);
    let origin: EmbeddedOrigin = 'started';
    let port = await reusableServer(paths, credentials, log);
    let spawned: SpawnedServer | undefined;
    if (port !== undefined) {
      const owner = await readOwner(paths.owner);
      origin = owner && owner !== process.pid && isProcessAlive(owner) ? 'reused' : 'adopted';
    } else {
      spawned = await spawnServer(
        paths,
        binaries.postgres,
        runAs,
        config.durable ?? true,
        credentials,
        log,
      );
      port = spawned.port;
    }
    if (origin !== 'reused') await writeOwner(paths.owner);
    await ensureDatabase(credentials, port);
    const sentinel = await connect(credentials, port, 'postgres');
    const fixedPort = port;
    const respawn = () =>
      spawnServer(
        paths,
        binaries.postgres,
        runAs,
        config.durable ?? true,
        credentials,
        log,
        fixedPort,
      );
    const handle = createHandle(paths, credentials, port, origin, sentinel, log, {
      supervise: config.supervise ?? false,
      spawned,
      respawn,
    });
    log(
      'info',
      `embedded PostgreSQL ${origin} at ${paths.dataDir} (port ${port}, database ${credentials.database})`,
    );
    return handle;
  });
}

interface Supervision {
  supervise: boolean;
  /** The server this process spawned (its exit status tells why it went). */
  spawned?: SpawnedServer;
  /** Starts the server again on the same port. */
  respawn: () => Promise<SpawnedServer>;
}

function createHandle(
  paths: ReturnType<typeof embeddedPaths>,
  credentials: Credentials,
  port: number,
  initialOrigin: EmbeddedOrigin,
  initialSentinel: Client,
  log: EmbeddedLog,
  supervision: Supervision,
): EmbeddedPostgresHandle {
  let origin = initialOrigin;
  let sentinel = initialSentinel;
  let spawned = supervision.spawned;
  // Safety net for a crash (process.exit without release): an owner stops its server
  // rather than leave an orphan (the next start would adopt it, but nobody may come back).
  let postmaster = parsePostmasterPid(readFileSync(paths.postmasterPid, 'utf8'))?.pid;
  const onExit = () => {
    if (origin === 'reused' || !postmaster) return;
    try {
      process.kill(postmaster, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.on('exit', onExit);

  const supervisor = supervision.supervise
    ? new PostgresSupervisor(
        {
          running: () => postmaster !== undefined && isProcessAlive(postmaster),
          exitReason: async () => {
            const status = spawned?.exitStatus();
            const tail = (await readFile(paths.log, 'utf8').catch(() => ''))
              .split('\n')
              .filter((line) => /FATAL|PANIC|terminated|shutting down/.test(line))
              .slice(-1)[0]
              ?.trim();
            return [`pid ${postmaster}`, status, tail ? `last log line: ${tail}` : undefined]
              .filter(Boolean)
              .join('; ');
          },
          restart: () =>
            withFileLock(paths.lock, async () => {
              // Another process of ours may have restarted it already (same port): use that.
              const live = classifyPostmaster(
                await readPostmasterPid(paths.postmasterPid),
                isPostgresProcess,
              );
              if (live.kind === 'running' && live.port === port) {
                if (
                  !(await waitUntilReady(credentials, port, 15_000, () => isProcessAlive(live.pid)))
                )
                  throw new Error(`PostgreSQL (pid ${live.pid}) does not answer`);
                postmaster = live.pid;
              } else {
                if (live.kind !== 'none') await unlink(paths.postmasterPid).catch(() => undefined);
                spawned = await supervision.respawn();
                postmaster = spawned.pid;
                origin = 'started';
                await writeOwner(paths.owner);
              }
              void sentinel.end().catch(() => undefined); // its server is gone
              sentinel = await connect(credentials, port, 'postgres');
              sentinel.once('end', () => void supervisor?.check());
            }),
        },
        (level, message) => log(level, message),
      )
    : undefined;
  if (supervisor) {
    sentinel.once('end', () => void supervisor.check());
    supervisor.start();
  }

  let released: Promise<void> | undefined;
  const handle: EmbeddedPostgresHandle = {
    url: `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@${HOST}:${port}/${credentials.database}`,
    port,
    dataDir: paths.dataDir,
    database: credentials.database,
    origin,
    release: () =>
      (released ??= (async () => {
        active.delete(handle);
        await supervisor?.stop();
        process.removeListener('exit', onExit);
        await sentinel.end().catch(() => undefined);
        await withFileLock(paths.lock, async () => {
          const owner = await readOwner(paths.owner);
          if (owner && owner !== process.pid && isProcessAlive(owner)) return; // its job
          const others = await countOtherClients(credentials, port).catch(() => 0);
          if (others > 0) {
            // Leave it to the remaining clients; whoever leaves last stops it.
            if (owner === process.pid) await unlink(paths.owner).catch(() => undefined);
            log('info', `embedded PostgreSQL left running for ${others} other client(s)`);
            return;
          }
          await stopServer(paths, log);
          await unlink(paths.owner).catch(() => undefined);
        });
      })()),
  };
  active.add(handle);
  return handle;
}

/** initdb once; `credentials.json` (0600, written last) marks a completed initialisation. */
async function ensureInitialised(
  paths: ReturnType<typeof embeddedPaths>,
  database: string,
  log: EmbeddedLog,
): Promise<Credentials> {
  const existing = await readJson<Credentials>(paths.credentials);
  if (existing?.initialisedAt) return existing;

  // No marker: a fresh directory or an interrupted initdb; start over.
  await rm(paths.dataDir, { recursive: true, force: true });
  const credentials: Credentials = {
    user: 'postgres',
    password: randomBytes(18).toString('base64url'),
    database,
    initialisedAt: '',
  };
  log('info', `initialising embedded PostgreSQL in ${paths.dataDir}`);
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: paths.dataDir,
    user: credentials.user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: [
      '--encoding=UTF8',
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
    ],
    onLog: (message) => log('debug', message.trim()),
    onError: (error) => log('warn', String(error)),
  });
  await server.initialise();
  credentials.initialisedAt = new Date().toISOString();
  await writeFile(paths.credentials, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  return credentials;
}

/**
 * Inspects postmaster.pid. A stale file (dead pid, or a pid now used by another program) is
 * removed. A live server that answers is reused; one that does not answer is stopped.
 * Returns the port of a reusable server.
 */
async function reusableServer(
  paths: ReturnType<typeof embeddedPaths>,
  credentials: Credentials,
  log: EmbeddedLog,
): Promise<number | undefined> {
  const state = classifyPostmaster(await readPostmasterPid(paths.postmasterPid), isPostgresProcess);
  if (state.kind === 'none') return undefined;
  if (state.kind === 'stale') {
    log('warn', 'removing stale postmaster.pid left by an unclean stop');
    await unlink(paths.postmasterPid).catch(() => undefined);
    return undefined;
  }
  if (await waitUntilReady(credentials, state.port, 15_000, () => isProcessAlive(state.pid))) {
    return state.port;
  }
  log('warn', `embedded PostgreSQL (pid ${state.pid}) does not answer; stopping it`);
  await stopServer(paths, log);
  return undefined;
}

/** A postmaster this process spawned. */
interface SpawnedServer {
  port: number;
  pid: number | undefined;
  /** `exited with code N` / `killed by SIGNAL` once it exited, else undefined. */
  exitStatus(): string | undefined;
}

/** Spawns a postmaster on a free port, or on `fixedPort` (a restart: the pool's URL names it). */
async function spawnServer(
  paths: ReturnType<typeof embeddedPaths>,
  postgresBin: string,
  runAs: { uid: number; gid: number } | undefined,
  durable: boolean,
  credentials: Credentials,
  log: EmbeddedLog,
  fixedPort?: number,
): Promise<SpawnedServer> {
  await rotateLog(paths.log);
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await findFreePort(HOST));
    const args = [
      '-D',
      paths.dataDir,
      '-p',
      String(port),
      '-c',
      `listen_addresses=${HOST}`,
      '-c',
      'unix_socket_directories=',
      ...(durable
        ? []
        : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ];
    const logFile = await open(paths.log, 'a');
    // Detached: its own process group, so a Ctrl-C in the terminal reaches only node, which
    // then stops the server after closing its pool. Output goes to a file, not a pipe, so
    // the server survives our death and can be adopted by the next start.
    const child = spawn(postgresBin, args, {
      ...(runAs ?? {}),
      detached: true,
      stdio: ['ignore', logFile.fd, logFile.fd],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    await logFile.close();
    let exited = false;
    let exitStatus: string | undefined;
    child.once('exit', (code, signal) => {
      exited = true;
      exitStatus = signal ? `killed by ${signal}` : `exited with code ${code}`;
    });
    child.once('error', () => (exited = true));
    child.unref();
    if (await waitUntilReady(credentials, port, 60_000, () => !exited)) {
      return { port, pid: child.pid, exitStatus: () => exitStatus };
    }

    const tail = (await readFile(paths.log, 'utf8').catch(() => ''))
      .split('\n')
      .slice(-15)
      .join('\n');
    if (!exited && child.pid) {
      process.kill(child.pid, 'SIGKILL');
    }
    if (
      fixedPort === undefined &&
      attempt < 3 &&
      /could not bind|address already in use/i.test(tail)
    ) {
      log('warn', `port ${port} was taken; retrying`);
      continue;
    }
    throw new Error(`embedded PostgreSQL did not start (log: ${paths.log}):\n${tail}`);
  }
}

/** Fast shutdown (SIGINT) of the postmaster in postmaster.pid; escalates if it hangs. */
async function stopServer(
  paths: ReturnType<typeof embeddedPaths>,
  log: EmbeddedLog,
): Promise<void> {
  const pidFile = await readPostmasterPid(paths.postmasterPid);
  if (!pidFile || pidFile === 'garbled' || !isPostgresProcess(pidFile.pid)) return;
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    try {
      process.kill(pidFile.pid, signal);
    } catch {
      return;
    }
    if (await waitForExit(pidFile.pid, waitMs)) {
      log('info', 'embedded PostgreSQL stopped');
      return;
    }
  }
}

async function waitUntilReady(
  credentials: Credentials,
  port: number,
  timeoutMs: number,
  stillRunning: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillRunning()) {
    try {
      const client = await connect(credentials, port, 'postgres');
      await client.end();
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return false;
}

async function connect(credentials: Credentials, port: number, database: string): Promise<Client> {
  const client = new Client({
    host: HOST,
    port,
    user: credentials.user,
    password: credentials.password,
    database,
    connectionTimeoutMillis: 2_000,
    application_name: 'embedded-postgres-manager',
  });
  client.on('error', () => undefined); // server stopped under us: nothing to do
  try {
    await client.connect();
  } catch (error) {
    // Not awaited: ending a client whose socket already died may never settle.
    void client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

async function ensureDatabase(credentials: Credentials, port: number): Promise<void> {
  const client = await connect(credentials, port, 'postgres');
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      credentials.database,
    ]);
    if (!rowCount)
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(credentials.database)}`);
  } finally {
    await client.end();
  }
}

async function countOtherClients(credentials: Credentials, port: number): Promise<number> {
  const client = await connect(credentials, port, 'postgres');
  try {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/** As root, PostgreSQL runs as the `postgres` user (created by embedded-postgres if needed). */
async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = async (flag: string) =>
    Number((await execFileAsync('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { uid: await id('-u'), gid: await id('-g') };
  } catch {
    await execFileAsync('groupadd', ['postgres']).catch(() => undefined);
    await execFileAsync('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: await id('-u'), gid: await id('-g') };
  }
}

/**
 * The `postgres` user must be able to reach the data directory: grant "search" (o+x) on the
 * base directory and any parent lacking it (e.g. a 0700 temp dir or home directory).
 */
export async function ensureTraversable(dir: string, log: EmbeddedLog): Promise<void> {
  for (let current = dir; ; current = dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) {
      await chmod(current, (mode & 0o7777) | 0o011);
      log('warn', `granted search permission on ${current} so PostgreSQL can reach its data`);
    }
    if (dirname(current) === current) return;
  }
}

async function readOwner(file: string): Promise<number | undefined> {
  return (await readJson<{ pid: number }>(file))?.pid;
}

async function writeOwner(file: string): Promise<void> {
  await writeFile(
    file,
    JSON.stringify({ pid: process.pid, since: new Date().toISOString() }) + '\n',
  );
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function rotateLog(file: string): Promise<void> {
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (size > 10 * 1024 * 1024) await rename(file, `${file}.1`);
}
