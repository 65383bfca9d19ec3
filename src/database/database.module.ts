import { Global, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source';
import { DatabaseServer, openDatabaseServer } from './database-server';
import { runMigrationsLocked } from './migration-runner';
import { DatabaseOutage } from './outage/database-outage';
import { reportingClient } from './outage/reporting-client';

/**
 * Owns the PostgreSQL server (embedded or DATABASE_URL) the DataSource connects to, and the
 * outage monitor every part of the app reports database failures to (global: the exception
 * filter, readiness and background work use it).
 */
@Global()
@Module({
  providers: [
    {
      provide: DatabaseServer,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('EmbeddedPostgres');
        // The service keeps its embedded server running (restarted if it exits).
        return openDatabaseServer(
          config,
          (level, message) =>
            level === 'debug'
              ? logger.debug(message)
              : logger[level === 'warn' ? 'warn' : 'log'](message),
          { supervise: true },
        );
      },
    },
    {
      provide: DatabaseOutage,
      inject: [DatabaseServer],
      useFactory: (server: DatabaseServer) =>
        new DatabaseOutage(DatabaseOutage.probeOf(server.url), new Logger('Database')),
    },
  ],
  exports: [DatabaseServer, DatabaseOutage],
})
class DatabaseServerModule implements OnApplicationShutdown {
  constructor(
    private readonly server: DatabaseServer,
    private readonly outage: DatabaseOutage,
    private readonly moduleRef: ModuleRef,
  ) {}

  /**
   * Nest may run this hook before TypeORM's own, so close the pool first (TypeORM then skips
   * it): the embedded server is stopped only when no connection of ours is left.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.outage.stop();
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    if (dataSource?.isInitialized) await dataSource.destroy();
    await this.server.release();
  }
}

/**
 * Settings every pooled connection starts its session with (`-c name=value`), from the
 * configuration: SQL computed on read may depend on them (the billing mode). The application
 * root gives them, so the platform names no feature.
 */
export type SessionSettings = (config: AppConfig) => Readonly<Record<string, string>>;

/** The libpq `options` startup parameter carrying the settings. */
export function sessionOptions(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

/**
 * TypeORM with the shared options. `migrationsRun` is honoured by us, not by TypeORM: pending
 * migrations run before the pool opens, under the advisory lock (see runMigrationsLocked), on
 * a connection without the pool's statement_timeout (an index build may take minutes).
 *
 * The pool bounds every wait: a connection is waited for at most DATABASE_POOL_TIMEOUT_MS, a
 * statement runs at most DATABASE_STATEMENT_TIMEOUT_MS; both end as 503 (see DatabaseOutage
 * and the exception filter). Errors of idle connections (the server went away), and of
 * held ones nobody listens to (reportingClient), go to the outage monitor, which logs an
 * outage once.
 */
export const databaseModule = (sessionSettings: SessionSettings = () => ({})) =>
  TypeOrmModule.forRootAsync({
    imports: [DatabaseServerModule],
    inject: [DatabaseServer, AppConfig, DatabaseOutage],
    useFactory: (server: DatabaseServer, config: AppConfig, outage: DatabaseOutage) => ({
      ...dataSourceOptions(server.url, {
        migrationsRun: config.migrateOnStart,
        poolErrorHandler: (error: unknown) => outage.report(error, 'background'),
        extra: {
          Client: reportingClient((error) => outage.report(error, 'background')),
          max: config.databasePoolSize,
          connectionTimeoutMillis: config.databasePoolTimeoutMs,
          options: sessionOptions(sessionSettings(config)),
          ...(config.databaseStatementTimeoutMs > 0
            ? { statement_timeout: config.databaseStatementTimeoutMs }
            : {}),
        },
      }),
      autoLoadEntities: false,
      retryAttempts: 2,
      retryDelay: 1000,
    }),
    dataSourceFactory: async (options) => {
      const { migrationsRun, ...rest } = options as typeof options & { migrationsRun?: boolean };
      if (migrationsRun) {
        // The same database and entities, without the pool's limits and outage hooks.
        const migrator = await new DataSource({
          ...rest,
          migrationsRun: false,
          poolErrorHandler: undefined,
          extra: { max: 2 },
        } as any).initialize();
        try {
          const executed = await runMigrationsLocked(migrator);
          const logger = new Logger('Migrations');
          for (const migration of executed) logger.log(`executed ${migration.name}`);
        } finally {
          await migrator.destroy();
        }
      }
      return new DataSource({ ...rest, migrationsRun: false } as any).initialize();
    },
  });
