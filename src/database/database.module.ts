import { Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { billingSessionOptions } from '../billing/billing-mode';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source';
import { DatabaseServer, openDatabaseServer } from './database-server';
import { runMigrationsLocked } from './migration-runner';

/** Owns the PostgreSQL server (embedded or DATABASE_URL) the DataSource connects to. */
@Module({
  providers: [
    {
      provide: DatabaseServer,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('EmbeddedPostgres');
        return openDatabaseServer(config, (level, message) =>
          level === 'debug'
            ? logger.debug(message)
            : logger[level === 'warn' ? 'warn' : 'log'](message),
        );
      },
    },
  ],
  exports: [DatabaseServer],
})
class DatabaseServerModule implements OnApplicationShutdown {
  constructor(
    private readonly server: DatabaseServer,
    private readonly moduleRef: ModuleRef,
  ) {}

  /**
   * Nest may run this hook before TypeORM's own, so close the pool first (TypeORM then skips
   * it): the embedded server is stopped only when no connection of ours is left.
   */
  async onApplicationShutdown(): Promise<void> {
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    if (dataSource?.isInitialized) await dataSource.destroy();
    await this.server.release();
  }
}

/**
 * TypeORM with the shared options. `migrationsRun` is honoured by us, not by TypeORM: pending
 * migrations run after connecting, under the advisory lock (see runMigrationsLocked).
 */
export const DatabaseModule = TypeOrmModule.forRootAsync({
  imports: [DatabaseServerModule],
  inject: [DatabaseServer, AppConfig],
  useFactory: (server: DatabaseServer, config: AppConfig) => ({
    ...dataSourceOptions(server.url, {
      migrationsRun: config.migrateOnStart,
      // Session settings SQL computed on read depends on (src/billing/billing-mode.ts).
      extra: { max: config.databasePoolSize, options: billingSessionOptions(config) },
    }),
    autoLoadEntities: false,
    retryAttempts: 2,
    retryDelay: 1000,
  }),
  dataSourceFactory: async (options) => {
    const { migrationsRun, ...rest } = options as typeof options & { migrationsRun?: boolean };
    const dataSource = await new DataSource({ ...rest, migrationsRun: false } as any).initialize();
    if (migrationsRun) {
      try {
        const executed = await runMigrationsLocked(dataSource);
        const logger = new Logger('Migrations');
        for (const migration of executed) logger.log(`executed ${migration.name}`);
      } catch (error) {
        await dataSource.destroy();
        throw error;
      }
    }
    return dataSource;
  },
});
