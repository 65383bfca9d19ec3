import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource, type QueryRunner } from 'typeorm';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/**
 * The pool's bounds: a statement slower than DATABASE_STATEMENT_TIMEOUT_MS is cancelled, and a
 * request that finds no free connection within DATABASE_POOL_TIMEOUT_MS is answered 503 with
 * Retry-After instead of waiting in an unbounded queue.
 */
describe('database pool limits', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  const saved = { ...process.env };
  const held: QueryRunner[] = [];

  beforeAll(async () => {
    process.env.DATABASE_POOL_SIZE = '2';
    process.env.DATABASE_POOL_TIMEOUT_MS = '300';
    process.env.DATABASE_STATEMENT_TIMEOUT_MS = '500';
    app = await createTestApp();
    tenant = await createTenant(app);
  });

  afterAll(async () => {
    for (const runner of held) await runner.release().catch(() => undefined);
    await closeTestApp(app);
    process.env = saved;
  });

  it('cancels a statement slower than the statement timeout (57014)', async () => {
    await expect(app.get(DataSource).query('SELECT pg_sleep(5)')).rejects.toMatchObject({
      driverError: expect.objectContaining({ code: '57014' }),
    });
    // The connection is free again for the next statement.
    await expect(app.get(DataSource).query('SELECT 1 AS ok')).resolves.toEqual([{ ok: 1 }]);
  });

  it('answers 503 with Retry-After when every pool connection stays busy, then serves again', async () => {
    const db = app.get(DataSource);
    for (let i = 0; i < 2; i++) {
      const runner = db.createQueryRunner();
      await runner.connect();
      held.push(runner);
    }
    const busy = await api(app, { token: tenant.token }).get('/workspaces').expect(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.body).toMatchObject({
      '@type': 'hydra:Error',
      'hydra:description': 'The service is busy; retry later.',
    });

    for (const runner of held.splice(0)) await runner.release();
    await api(app, { token: tenant.token }).get('/workspaces').expect(200);
  });
});
