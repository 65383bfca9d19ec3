import { join } from 'path';
import { AppConfig } from '../config/app-config';
import { EmbeddedLog, startEmbeddedPostgres } from './embedded/embedded-postgres';

/** The PostgreSQL server this process uses: DATABASE_URL, or the embedded one. */
export abstract class DatabaseServer {
  abstract readonly url: string;
  /** Human-readable, without password: `embedded PostgreSQL at <dir> (port N)` or the URL. */
  abstract readonly description: string;
  abstract readonly embedded: boolean;
  abstract release(): Promise<void>;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '<invalid url>';
  }
}

/** Resolves the database from configuration, starting the embedded PostgreSQL if needed. */
export async function openDatabaseServer(
  config: AppConfig,
  log?: EmbeddedLog,
  options: { supervise?: boolean } = {},
): Promise<DatabaseServer> {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    return { url, description: redactUrl(url), embedded: false, release: async () => undefined };
  }
  const handle = await startEmbeddedPostgres({
    baseDir: join(config.dataDir, 'pg'),
    log,
    supervise: options.supervise,
  });
  return {
    url: handle.url,
    description: `embedded PostgreSQL at ${handle.dataDir} (port ${handle.port}, ${handle.origin})`,
    embedded: true,
    release: () => handle.release(),
  };
}
