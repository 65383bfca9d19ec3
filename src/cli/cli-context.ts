import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { createDataSource } from '../database/data-source';
import { openDatabaseServer, type DatabaseServer } from '../database/database-server';
import type { CliContext } from './cli-command';

/** A CliContext whose resources are opened on demand and closed by `close()`. */
export function createCliContext(config: AppConfig): CliContext & { close(): Promise<void> } {
  let server: Promise<DatabaseServer> | undefined;
  let dataSource: Promise<DataSource> | undefined;
  let app: Promise<INestApplicationContext> | undefined;
  const log = (level: string, message: string) => {
    if (level === 'warn') process.stderr.write(`${message}\n`);
  };

  return {
    config,
    print: (line) => process.stdout.write(`${line}\n`),
    dataSource: () =>
      (dataSource ??= (async (): Promise<DataSource> => {
        if (app) return (await app).get<DataSource>(DataSource, { strict: false });
        server ??= openDatabaseServer(config, log);
        return createDataSource((await server).url, { extra: { max: 4 } }).initialize();
      })()),
    app: () =>
      (app ??= (async () => {
        const { NestFactory } = await import('@nestjs/core');
        const { AppModule } = await import('../app.module');
        return NestFactory.createApplicationContext(AppModule, {
          logger: ['error', 'warn'],
          abortOnError: false,
        });
      })()),
    async close() {
      const settled = async <T>(p?: Promise<T>) => (p ? p.catch(() => undefined) : undefined);
      const ds = await settled(dataSource);
      if (ds?.isInitialized) await ds.destroy();
      await (await settled(app))?.close();
      await (await settled(server))?.release();
    },
  };
}
