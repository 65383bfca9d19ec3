import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'net';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.setup';

export interface TestAppOptions {
  /** Root module (default AppModule); e.g. a test module importing AppModule plus fakes. */
  module?: Type<unknown>;
  /** Listen on an ephemeral port (for clients other than supertest); see testAppUrl(). */
  listen?: boolean;
}

/**
 * The real application (AppModule + configureApp, exactly as main.ts builds it) on this
 * worker's database. Use with `api(app)` from ./http, and `closeTestApp(app)` in afterAll.
 * (Built with NestFactory: @nestjs/testing is not a dependency.)
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(options.module ?? AppModule, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureApp(app);
  if (options.listen) {
    await app.listen(0, '127.0.0.1');
  } else {
    await app.init();
  }
  return app;
}

/** Base URL of an app created with `{ listen: true }`. */
export function testAppUrl(app: NestExpressApplication): string {
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export async function closeTestApp(app: NestExpressApplication | undefined): Promise<void> {
  await app?.close();
}
