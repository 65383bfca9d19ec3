import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { loadConfigOrExit } from './config/load-config';
import { DatabaseServer, redactUrl } from './database/database-server';
import { releaseAllEmbeddedPostgres } from './database/embedded/embedded-postgres';

let app: NestExpressApplication | undefined;

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureApp(app);
  await app.listen(config.port, config.host);

  const logger = app.get(Logger);
  const host = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host;
  const baseUrl = `http://${host}:${config.port}`;
  logger.log(`API listening on ${baseUrl} (health: ${baseUrl}/health/ready)`, 'Bootstrap');
  logger.log(`Database: ${app.get(DatabaseServer).description}`, 'Bootstrap');
  logger.log(
    'Credentials: create a user and an API client with `npm run cli -- bootstrap --email you@example.com`',
    'Bootstrap',
  );
}

bootstrap().catch(async (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException)?.code ?? '';
  const databaseUrl = process.env.DATABASE_URL;
  const hint =
    code === 'EADDRINUSE'
      ? ' (set PORT to use another port)'
      : databaseUrl && /^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|28P01|3D000)$/.test(code)
        ? ` (database: ${redactUrl(databaseUrl)}; unset DATABASE_URL to use the embedded one)`
        : '';
  process.stderr.write(`Start-up failed: ${message}${hint}\n`);
  // Close the pool first, so the embedded PostgreSQL we started sees no client and stops.
  await app?.close().catch(() => undefined);
  await releaseAllEmbeddedPostgres();
  process.exit(1);
});
