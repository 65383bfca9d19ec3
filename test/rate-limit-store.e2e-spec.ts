import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/load-config';
import { createDataSource } from '../src/database/data-source';
import { MemoryThrottlerStorage } from '../src/rate-limit/memory-throttler-storage';
import {
  MAX_RAW_KEY_LENGTH,
  PostgresThrottlerStorage,
} from '../src/rate-limit/postgres-throttler-storage';
import { WIDGET_LOOKUPS_PER_WINDOW } from '../src/widgets/widget-lookup-throttler.guard';
import { createClient } from './factories/identity.factory';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const THROTTLER = 'test';
/** A key no other test uses. */
const freshKey = (label: string) => `${label}:${randomUUID()}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NEVER_BLOCKED = (now: number) => Math.ceil((0 - now) / 1000);

describe('PostgresThrottlerStorage', () => {
  /** Two connection pools: two API nodes on one database. */
  let nodeA: DataSource;
  let nodeB: DataSource;
  let now: number;
  /** Storage of node A on the test's clock (`now`). */
  let clocked: PostgresThrottlerStorage;

  beforeAll(async () => {
    nodeA = await createDataSource(process.env.DATABASE_URL!, { extra: { max: 10 } }).initialize();
    nodeB = await createDataSource(process.env.DATABASE_URL!, { extra: { max: 10 } }).initialize();
  });
  afterAll(async () => {
    await nodeA.destroy();
    await nodeB.destroy();
  });
  beforeEach(() => {
    now = 1_700_000_000_000;
    clocked = new PostgresThrottlerStorage(nodeA, { now: () => now });
  });

  it('counts hits within the window and reports the seconds left, rounded up', async () => {
    const key = freshKey('count');
    const inc = () => clocked.increment(key, 60_000, 5, 60_000, THROTTLER);
    expect(await inc()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: NEVER_BLOCKED(now),
    });
    now += 10_500;
    expect(await inc()).toMatchObject({ totalHits: 2, timeToExpire: 50, isBlocked: false });
    expect(await inc()).toMatchObject({ totalHits: 3, timeToExpire: 50, isBlocked: false });
  });

  it('lets each hit expire ttl after it was made; the window restarts once run out', async () => {
    const key = freshKey('expiry');
    const inc = () => clocked.increment(key, 60_000, 10, 60_000, THROTTLER);
    await inc();
    now += 30_000;
    expect(await inc()).toMatchObject({ totalHits: 2, timeToExpire: 30 });
    now += 30_000; // the first hit has expired, the second has not
    expect(await inc()).toMatchObject({ totalHits: 2, timeToExpire: 60 });
    now += 200_000;
    expect(await inc()).toMatchObject({ totalHits: 1, timeToExpire: 60 });
  });

  it('blocks the hit beyond the limit for blockDuration, counting nothing meanwhile', async () => {
    const key = freshKey('block');
    const inc = () => clocked.increment(key, 10_000, 2, 30_000, THROTTLER);
    const start = now;
    expect(await inc()).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await inc()).toMatchObject({ totalHits: 2, isBlocked: false });
    expect(await inc()).toEqual({
      totalHits: 3,
      timeToExpire: 10,
      isBlocked: true,
      timeToBlockExpire: 30,
    });
    now = start + 5_000;
    expect(await inc()).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 25 });
    // Blocked longer than the hits live: still blocked, with no live hits.
    now = start + 25_000;
    expect(await inc()).toMatchObject({ totalHits: 0, isBlocked: true, timeToBlockExpire: 5 });
    // The block is over: this call starts again from one hit.
    now = start + 30_000;
    expect(await inc()).toEqual({
      totalHits: 1,
      timeToExpire: 5,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await inc()).toMatchObject({ totalHits: 2, isBlocked: false });
    expect(await inc()).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 30 });
  });

  it('without blockDuration refuses (uncounted) until the oldest hit expires', async () => {
    const key = freshKey('no-block');
    const inc = () => clocked.increment(key, 10_000, 2, 0, THROTTLER);
    const start = now;
    expect(await inc()).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
    now = start + 4_000;
    expect(await inc()).toMatchObject({ totalHits: 2, isBlocked: false });
    now = start + 5_000;
    expect(await inc()).toEqual({
      totalHits: 3,
      timeToExpire: 5,
      isBlocked: true,
      timeToBlockExpire: 5,
    });
    now = start + 10_000; // the first hit expires; the refused one was never recorded
    expect(await inc()).toMatchObject({ totalHits: 2, isBlocked: false });
    expect(await inc()).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 4 });
  });

  it("answers exactly as @nestjs/throttler's in-memory storage, call after call", async () => {
    const memory = new MemoryThrottlerStorage();
    const dateNow = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const keys = [freshKey('same-a'), freshKey('same-b')];
      const seen = new Set<string>();
      let seed = 42;
      const random = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      for (let i = 0; i < 400; i++) {
        now += [0, 1, 250, 700, 1_000, 1_500, 2_999][random(7)];
        const key = keys[random(2)];
        const ttl = [1_000, 3_000][random(2)];
        const limit = [1, 2, 3][random(3)];
        const block = [0, ttl, 5_000][random(3)];
        const expected = await memory.increment(key, ttl, limit, block, THROTTLER);
        const actual = await clocked.increment(key, ttl, limit, block, THROTTLER);
        expect({ call: i, ...actual }).toEqual({
          call: i,
          ...expected,
          // Math.ceil of a small negative fraction is -0 there (=== 0, the same header).
          timeToBlockExpire: expected.timeToBlockExpire + 0,
        });
        // And both tell the same block without counting (RateBudgets.assertOpen).
        now += [0, 400][random(2)];
        expect({ call: i, left: await clocked.blockedFor(key, THROTTLER) }).toEqual({
          call: i,
          left: await memory.blockedFor(key),
        });
        seen.add(`${block > 0 ? 'blocking' : 'non-blocking'}, blocked: ${expected.isBlocked}`);
      }
      // The script went through every branch.
      expect([...seen].sort()).toEqual([
        'blocking, blocked: false',
        'blocking, blocked: true',
        'non-blocking, blocked: false',
        'non-blocking, blocked: true',
      ]);
    } finally {
      dateNow.mockRestore();
      memory.onApplicationShutdown();
    }
  });

  it('shares one budget between two nodes', async () => {
    const key = freshKey('shared');
    const a = new PostgresThrottlerStorage(nodeA);
    const b = new PostgresThrottlerStorage(nodeB);
    expect(await a.increment(key, 60_000, 3, 60_000, THROTTLER)).toMatchObject({ totalHits: 1 });
    expect(await b.increment(key, 60_000, 3, 60_000, THROTTLER)).toMatchObject({ totalHits: 2 });
    expect(await a.increment(key, 60_000, 3, 60_000, THROTTLER)).toMatchObject({
      totalHits: 3,
      isBlocked: false,
    });
    const over = await b.increment(key, 60_000, 3, 60_000, THROTTLER);
    expect(over).toMatchObject({ totalHits: 4, isBlocked: true });
    expect(over.timeToBlockExpire).toBeGreaterThanOrEqual(59);
    expect(await a.increment(key, 60_000, 3, 60_000, THROTTLER)).toMatchObject({
      isBlocked: true,
    });
    // Another throttler name is another budget.
    expect(await a.increment(key, 60_000, 3, 60_000, 'other')).toMatchObject({ totalHits: 1 });
  });

  it('counts 50 concurrent increments from two nodes exactly', async () => {
    const key = freshKey('concurrent');
    const nodes = [new PostgresThrottlerStorage(nodeA), new PostgresThrottlerStorage(nodeB)];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        nodes[i % 2].increment(key, 60_000, 1_000, 60_000, THROTTLER),
      ),
    );
    expect(answers.map((a) => a.totalHits).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const [row] = await nodeA.query(
      `SELECT cardinality(hits) AS hits FROM rate_limit_counter WHERE throttler = $1 AND key = $2`,
      [THROTTLER, key],
    );
    expect(row.hits).toBe(50);
  });

  it('uses the database server clock when given none', async () => {
    const key = freshKey('db-clock');
    const storage = new PostgresThrottlerStorage(nodeB);
    expect(await storage.increment(key, 300, 5, 300, THROTTLER)).toMatchObject({
      totalHits: 1,
      timeToExpire: 1,
    });
    expect(await storage.increment(key, 300, 5, 300, THROTTLER)).toMatchObject({ totalHits: 2 });
    await sleep(400);
    expect(await storage.increment(key, 300, 5, 300, THROTTLER)).toMatchObject({ totalHits: 1 });
  });

  it('purges the rows that no longer change an answer, and only those', async () => {
    const idle = freshKey('idle');
    const live = freshKey('live');
    const blocked = freshKey('blocked');
    await clocked.increment(idle, 1_000, 5, 1_000, THROTTLER);
    await clocked.increment(live, 100_000, 5, 1_000, THROTTLER);
    await clocked.increment(blocked, 1_000, 1, 100_000, THROTTLER);
    expect(await clocked.increment(blocked, 1_000, 1, 100_000, THROTTLER)).toMatchObject({
      isBlocked: true,
    });
    now += 2_000;
    expect(await clocked.purgeExpired()).toBeGreaterThanOrEqual(1);
    const rows: { key: string }[] = await nodeA.query(
      `SELECT key FROM rate_limit_counter WHERE key = ANY($1)`,
      [[idle, live, blocked]],
    );
    expect(rows.map((r) => r.key).sort()).toEqual([blocked, live].sort());
    // A purged key starts again, as after the in-memory storage's sweep.
    expect(await clocked.increment(idle, 1_000, 5, 1_000, THROTTLER)).toMatchObject({
      totalHits: 1,
    });
    expect(await clocked.increment(blocked, 1_000, 1, 100_000, THROTTLER)).toMatchObject({
      isBlocked: true,
    });
  });

  it('stores a long key as its SHA-256, a short one as it is', async () => {
    const long = freshKey('x'.repeat(MAX_RAW_KEY_LENGTH));
    const short = freshKey('client');
    await clocked.increment(long, 60_000, 5, 60_000, THROTTLER);
    expect(await clocked.increment(long, 60_000, 5, 60_000, THROTTLER)).toMatchObject({
      totalHits: 2,
    });
    await clocked.increment(short, 60_000, 5, 60_000, THROTTLER);
    const hashed = `sha256:${createHash('sha256').update(long).digest('hex')}`;
    const rows: { key: string }[] = await nodeA.query(
      `SELECT key FROM rate_limit_counter WHERE key = ANY($1)`,
      [[long, hashed, short]],
    );
    expect(rows.map((r) => r.key).sort()).toEqual([hashed, short].sort());
  });
});

describe('RATE_LIMIT_STORE', () => {
  it('defaults to postgres, accepts memory and refuses anything else', () => {
    expect(loadConfig({}).rateLimitStore).toBe('postgres');
    expect(loadConfig({ RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe('memory');
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(
      'RATE_LIMIT_STORE="redis" must be one of postgres, memory',
    );
  });
});

/** Two API nodes on the worker's database, with a client limit of 3 token requests. */
async function twoNodes(store: string): Promise<[NestExpressApplication, NestExpressApplication]> {
  const saved = { ...process.env };
  try {
    process.env.RATE_LIMIT_STORE = store;
    process.env.TOKEN_RATE_LIMIT_PER_CLIENT = '3';
    process.env.TOKEN_RATE_LIMIT_PER_ADDRESS = '1000';
    process.env.TOKEN_RATE_WINDOW_SECONDS = '60';
    return [await createTestApp(), await createTestApp()];
  } finally {
    process.env = saved;
  }
}

describe.each([
  ['postgres', true],
  ['memory', false],
])('rate limits of two API nodes with RATE_LIMIT_STORE=%s', (store, shared) => {
  let a: NestExpressApplication;
  let b: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    [a, b] = await twoNodes(store);
    tenant = await createTenant(a);
  });
  afterAll(async () => {
    await closeTestApp(a);
    await closeTestApp(b);
  });

  it(shared ? 'spend one token budget' : 'each have their own token budget', async () => {
    const client = await createClient(a, tenant);
    const ask = (app: NestExpressApplication) =>
      request(app.getHttpServer()).get('/oauth/v2/token').query({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
      });
    await ask(a).expect(200);
    await ask(b).expect(200);
    await ask(a).expect(200);
    if (shared) {
      const limited = await ask(b).expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      await ask(a).expect(429);
    } else {
      await ask(b).expect(200); // b's second
      await ask(a).expect(200); // a's third
      await ask(a).expect(429); // a's fourth
    }
  });

  it(
    shared ? 'spend one widget lookup budget' : 'each have their own widget lookup budget',
    async () => {
      const widget = await api(a, { token: tenant.token })
        .post('/widgets', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          title: 'Track your parcel',
          type: 'tracking_form',
        })
        .expect(201);
      const lookup = (app: NestExpressApplication) =>
        api(app).post(`/public/widgets/${widget.body.id}/lookup`, { trackingNumber: 'N1' });
      for (let i = 0; i < WIDGET_LOOKUPS_PER_WINDOW; i++) await lookup(i % 2 ? a : b).expect(200);
      if (shared) {
        const limited = await lookup(a).expect(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        await lookup(b).expect(429);
      } else {
        await lookup(a).expect(200);
        await lookup(b).expect(200);
      }
    },
  );
});
