import { join } from 'path';
import { DataSource } from 'typeorm';
import { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Repository root, from src/database (ts-node, jest) or dist/src/database (compiled). */
const SRC_ROOT = join(__dirname, '..');
const MIGRATIONS_DIR = join(__dirname, '..', '..', 'migrations');

/**
 * The one set of TypeORM options, shared by the app (TypeOrmModule), the CLI, the typeorm CLI
 * and the test harness. Entities are found by file name (`*.entity.ts|js` anywhere under src),
 * so a new module's entities need no registration. Schema changes only through migrations.
 */
export function dataSourceOptions(
  url: string,
  overrides: Partial<PostgresConnectionOptions> = {},
): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url,
    entities: [join(SRC_ROOT, '**', '*.entity.{ts,js}')],
    migrations: [join(MIGRATIONS_DIR, '*.{ts,js}')],
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    applicationName: 'shipment-tracking',
    ...overrides,
  };
}

export function createDataSource(
  url: string,
  overrides: Partial<PostgresConnectionOptions> = {},
): DataSource {
  return new DataSource(dataSourceOptions(url, overrides));
}

/**
 * For the typeorm CLI only (`npm run migration:generate -- migrations/Name`): a lazy thenable,
 * so importing this file from the app has no side effects. Awaiting it opens the configured
 * database (starting the embedded PostgreSQL when DATABASE_URL is unset).
 */
const typeormCliDataSource: PromiseLike<DataSource> = {
  then(onFulfilled, onRejected) {
    const open = async () => {
      const { loadConfigOrExit } = await import('../config/load-config');
      const { openDatabaseServer } = await import('./database-server');
      const server = await openDatabaseServer(loadConfigOrExit());
      process.once('beforeExit', () => void server.release());
      return createDataSource(server.url);
    };
    return open().then(onFulfilled, onRejected);
  },
};
export default typeormCliDataSource;
