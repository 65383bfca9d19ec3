import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('health', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await createTestApp();
  });

  afterAll(() => closeTestApp(app));

  it('GET /health answers while the process lives', async () => {
    const res = await api(app).json().get('/health').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 'ok' });
  });

  it('GET /health/ready reports the database up', async () => {
    const res = await api(app).json().get('/health/ready').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('echoes an incoming x-request-id and makes one up otherwise', async () => {
    const given = await api(app).get('/health').set('x-request-id', 'trace-42').expect(200);
    expect(given.headers['x-request-id']).toBe('trace-42');
    const made = await api(app).get('/health').expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers (helmet)', async () => {
    const res = await api(app).get('/health').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers 413 to a body above BODY_LIMIT, JSON-LD included', async () => {
    const big = { data: 'x'.repeat(1024 * 1024 + 10) };
    const res = await api(app).post('/health', big).expect(413);
    expect(res.body).toMatchObject({
      '@type': 'hydra:Error',
      'hydra:description': 'Request Entity Too Large',
    });
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('answers 400 to malformed JSON', async () => {
    await api(app).post('/health').send('{nope').expect(400);
  });

  it('runs with the migrated schema (extensions installed)', async () => {
    const { DataSource } = await import('typeorm');
    const rows: { extname: string }[] = await app
      .get(DataSource)
      .query(`SELECT extname FROM pg_extension WHERE extname IN ('pgcrypto','pg_trgm','citext')`);
    expect(rows.map((r) => r.extname).sort()).toEqual(['citext', 'pg_trgm', 'pgcrypto']);
  });
});
