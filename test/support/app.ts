import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'net';
import { Client } from 'pg';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.setup';
import { JOB_SCHEMA } from '../../src/jobs/job-data-store';

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
  if (!leftoverJobsDropped) {
    leftoverJobsDropped = true;
    await dropLeftoverJobs();
  }
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

/**
 * Spec files share their worker's database one after another, and pg-boss's jobs with it: a job
 * an earlier file's app sent and closed before running (a reroute, a delivery to a receiver long
 * gone) would otherwise run in this file's app, behind this file's own jobs' backs and at its
 * pace. Dropped once per file (jest gives each file its own module state), before its first app.
 */
let leftoverJobsDropped = false;
async function dropLeftoverJobs(): Promise<void> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const [{ jobs }] = (await client.query(`SELECT to_regclass('${JOB_SCHEMA}.job') AS jobs`)).rows;
    if (jobs) await client.query(`DELETE FROM ${JOB_SCHEMA}.job WHERE state < 'completed'`);
  } finally {
    await client.end();
  }
}

/** Base URL of an app created with `{ listen: true }`. */
export function testAppUrl(app: NestExpressApplication): string {
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export async function closeTestApp(app: NestExpressApplication | undefined): Promise<void> {
  await app?.close();
}
