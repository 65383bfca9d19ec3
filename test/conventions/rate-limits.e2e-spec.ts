import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { ApiRateLimiter } from '../../src/rate-limit/api-rate-limiter';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant } from '../factories/tenant.factory';

/** README "API conventions": every route counts per caller, team and address. */
describe('API rate limits', () => {
  const saved = { ...process.env };
  let nodeA: NestExpressApplication;
  let nodeB: NestExpressApplication;

  beforeAll(async () => {
    process.env.API_RATE_LIMIT_PER_CALLER = '6';
    process.env.API_RATE_LIMIT_PER_TEAM = '8';
    process.env.API_RATE_LIMIT_PER_ADDRESS = '5';
    process.env.API_RATE_WINDOW_SECONDS = '3600';
    // Flushes are driven by the spec (flush()), so what each node knows is deterministic.
    process.env.API_RATE_FLUSH_MS = '60000';
    nodeA = await createTestApp();
    nodeB = await createTestApp();
  });

  afterAll(async () => {
    process.env = saved;
    await nodeA?.get(DataSource).query(`DELETE FROM api_rate_counter`);
    await closeTestApp(nodeA);
    await closeTestApp(nodeB);
  });

  it('answers the budget headers on every answer, and 429 with Retry-After beyond it', async () => {
    const tenant = await createTenant(nodeA);
    const first = await api(nodeA).withToken(tenant.token).get('/shipments').expect(200);
    expect(first.headers['ratelimit-policy']).toBe('"caller";q=6;w=3600, "team";q=8;w=3600');
    expect(first.headers['ratelimit']).toMatch(/^"caller";r=5;t=\d+$/);
    expect(first.headers['x-ratelimit-limit']).toBe('6');
    expect(first.headers['x-ratelimit-remaining']).toBe('5');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    for (let i = 0; i < 5; i++)
      await api(nodeA).withToken(tenant.token).get('/shipments').expect(200);
    const refused = await api(nodeA).withToken(tenant.token).get('/shipments').expect(429);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body['@type']).toBe('hydra:Error');
    expect(refused.body['hydra:description']).toMatch(/Rate limit exceeded \(caller\)/);
    // Errors count and carry the headers too (404 of a foreign id).
    const other = await createTenant(nodeA);
    const missing = await api(nodeA)
      .withToken(other.token)
      .get('/shipments/7e0c5a1e-0000-4000-8000-00000000beef')
      .expect(404);
    expect(missing.headers['x-ratelimit-remaining']).toBe('5');
  });

  it('shares the team budget between its members', async () => {
    const owner = await createTenant(nodeA);
    const db = nodeA.get(DataSource);
    // A second member of the owner's team, with a token of their own.
    const member = await createTenant(nodeA);
    await db.query(`INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'member')`, [
      owner.teamId,
      member.userId,
    ]);
    for (let i = 0; i < 6; i++)
      await api(nodeA).withToken(owner.token).get('/shipments').expect(200);
    const res = await api(nodeA).withToken(member.token).get('/shipments').expect(200);
    // Member of two teams: their own (1 used) and the owner's (7 used): the tightest is shown.
    expect(res.headers['ratelimit']).toMatch(/^"team";r=1;/);
    await api(nodeA).withToken(member.token).get('/shipments').expect(200);
    const refused = await api(nodeA).withToken(member.token).get('/shipments').expect(429);
    expect(refused.body['hydra:description']).toMatch(/team/);
  });

  it('counts public routes and failed authentication per client address', async () => {
    const res = await api(nodeB).get('/robots.txt').expect(200);
    expect(res.headers['ratelimit-policy']).toBe('"address";q=5;w=3600');
    const unauthenticated = await api(nodeB).get('/shipments').expect(401);
    expect(unauthenticated.headers['x-ratelimit-remaining']).toBe('3');
    await nodeB.get(DataSource).query(`DELETE FROM api_rate_counter`);
  });

  it('spends one budget on every node once their counts are flushed', async () => {
    const tenant = await createTenant(nodeA);
    for (let i = 0; i < 3; i++)
      await api(nodeA).withToken(tenant.token).get('/workspaces').expect(200);
    for (let i = 0; i < 2; i++)
      await api(nodeB).withToken(tenant.token).get('/workspaces').expect(200);
    await nodeB.get(ApiRateLimiter).flush();
    await nodeA.get(ApiRateLimiter).flush();
    // Node A read back the shared total of 5 (B's 2 and its 3): one request left.
    const last = await api(nodeA).withToken(tenant.token).get('/workspaces').expect(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    await api(nodeA).withToken(tenant.token).get('/workspaces').expect(429);
    await nodeA.get(ApiRateLimiter).flush();
    // B last read 5 and has not heard of A's sixth yet: it admits one more (the overrun is
    // at most what other nodes admit within one flush interval), then knows the total.
    await api(nodeB).withToken(tenant.token).get('/workspaces').expect(200);
    await nodeB.get(ApiRateLimiter).flush();
    await api(nodeB).withToken(tenant.token).get('/workspaces').expect(429);
    const [row] = await nodeA
      .get(DataSource)
      .query(`SELECT sum(hits)::int AS n FROM api_rate_counter WHERE key = $1`, [
        `caller:${tenant.userId}:`,
      ]);
    expect(row.n).toBe(7);
  });
});
