/**
 * Refresh of N shipments through 17TRACK (its local fake, test/fakes/seventeen-track-fake.ts,
 * on loopback): the real TrackingRefresher, routing to a team's 17track credentials, the
 * shared per-credentials budget in PostgreSQL, registration once per number, batches of 40,
 * set-based apply. Three phases:
 *   1. first refresh of N due shipments (register + gettrackinfo): shipments/s, requests per
 *      shipment (goal: at most 1/40 registrations per shipment);
 *   2. 12 hours later: nothing is due (push keeps them current): provider requests must be 0;
 *   3. pushes (signed, through the receiver's service) for `--pushed` shipments, then 25 hours
 *      later (the safety-net poll): only the others are polled, none is registered again.
 *
 *   node -r ts-node/register/transpile-only bench/seventeen-track-refresh.bench.ts \
 *     [--shipments 100000] [--loops 4] [--batch 4000] [--pushed 5000]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_tracking (created and
 * migrated when missing). Each run replaces the previous run's bench team. Exits 1 when a goal
 * is missed or a shipment is left untracked.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import {
  ACCEPTED_IN_SHENZHEN,
  seventeenTrackSign,
  startSeventeenTrackFake,
  type FakeSeventeenTrackJourney,
} from '../test/fakes/seventeen-track-fake';

const { values } = parseArgs({
  options: {
    shipments: { type: 'string', default: '100000' },
    loops: { type: 'string', default: '4' },
    batch: { type: 'string', default: '4000' },
    pushed: { type: 'string', default: '5000' },
  },
});
const SHIPMENTS = Number(values.shipments);
const LOOPS = Number(values.loops);
const BATCH = Number(values.batch);
const PUSHED = Math.min(SHIPMENTS, Number(values.pushed));
/** Pushes received at once (a provider delivers webhooks concurrently). */
const PUSH_CONCURRENCY = 4;
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_tracking';
const HOUR = 3_600_000;

async function prepareDatabase(): Promise<void> {
  const url = new URL(DB_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const db = createDataSource(DB_URL);
  await db.initialize();
  try {
    await runMigrationsLocked(db);
  } finally {
    await db.destroy();
  }
}

/** China Post accepts, USPS delivers the last mile; in transit, ETA given. */
function journey(): FakeSeventeenTrackJourney {
  return {
    carrier: 3011,
    status: 'InTransit',
    subStatus: 'InTransit_Arrival',
    origin: 'CN',
    destination: 'US',
    eta: '2026-03-14T18:00:00Z',
    localKey: 21051,
    events: [
      ACCEPTED_IN_SHENZHEN,
      {
        time: '2026-03-08T07:30:00-05:00',
        description: 'Arrived at USPS Regional Facility',
        location: 'NEW YORK NY',
        country: 'US',
        stage: 'Arrival',
        subStatus: 'InTransit_Arrival',
        providerKey: 21051,
      },
    ],
  };
}

/** Valid UPU S10 China Post numbers RR<8 digits><check>CN, one per g. */
const S10_SQL = `'RR' || lpad(g::text, 8, '0') || (
   SELECT CASE WHEN c = 10 THEN 0 WHEN c = 11 THEN 5 ELSE c END
     FROM (SELECT 11 - (sum(substr(lpad(g::text, 8, '0'), i::int, 1)::int * w) % 11) AS c
             FROM unnest(ARRAY[8, 6, 4, 2, 3, 5, 9, 7]) WITH ORDINALITY AS x(w, i)) k) || 'CN'`;

async function main(): Promise<void> {
  await prepareDatabase();
  const fake = await startSeventeenTrackFake('bench-17token-key');
  fake.setDefaultJourney(journey);
  Object.assign(process.env, {
    DATABASE_URL: DB_URL,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'false',
    // The fake listens on loopback, which team credentials reach only when allowed.
    TRACKING_PROVIDER_ALLOWED_HOSTS: '127.0.0.1',
    JOB_WORKERS_ENABLED: 'false',
    TRACKING_REFRESH_ENABLED: 'false',
    DATABASE_POOL_SIZE: String(Math.max(10, LOOPS * 2 + 2)),
    // Production refuses to start without a key; the bench seals its own credentials with it.
    CREDENTIALS_ENCRYPTION_KEY:
      process.env.CREDENTIALS_ENCRYPTION_KEY ?? randomBytes(32).toString('hex'),
  });
  const { AppModule } = await import('../src/app.module');
  const { TrackingRefresher } = await import('../src/tracking/refresh/tracking-refresher');
  const { CredentialsCipher } = await import('../src/credentials/credentials-cipher');
  const { Clock } = await import('../src/tracking/clock');
  const { TrackingWebhooks } = await import('../src/tracking/webhooks/tracking-webhooks');
  const { REGISTRATION_DEFER_MS } =
    await import('../src/tracking/tracking-service/tracking.service');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  try {
    const db = app.get(DataSource);
    const clock = app.get(Clock);
    const refresher = app.get(TrackingRefresher);
    const now = new Date('2026-03-10T12:00:00Z');
    clock.set(now);

    // Seed: one team with 17track credentials, N due China Post shipments.
    const seedStarted = Date.now();
    await db.query(`DELETE FROM team WHERE name = 'bench-17track'`);
    const [team] = await db.query(`INSERT INTO team (name) VALUES ('bench-17track') RETURNING id`);
    const [ws] = await db.query(
      `INSERT INTO workspace (team_id, title) VALUES ($1, '17track bench') RETURNING id`,
      [team.id],
    );
    const sealed = app.get(CredentialsCipher).sealSecrets({ apiKey: fake.apiKey });
    const [credentials] = await db.query(
      `INSERT INTO credentials (team_id, type, parameters, secrets_ciphertext, tags)
       VALUES ($1, '17track', $2::jsonb, $3, '{tracking}') RETURNING id`,
      [team.id, JSON.stringify({ baseUrl: fake.apiUrl, requestsPerSecond: 10000 }), sealed],
    );
    await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier, created_at, next_check_at)
       SELECT $1, ${S10_SQL}, 'china-post', $3::timestamptz - interval '1 day', $3
         FROM generate_series(1, $2) AS g`,
      [ws.id, SHIPMENTS, now],
    );
    await db.query('VACUUM ANALYZE shipment');
    console.error(
      `seeded ${SHIPMENTS} shipments in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    const counts = () => ({
      register: fake.calls('register').length,
      registerNumbers: fake.calls('register').reduce((n, r) => n + (r.body as unknown[]).length, 0),
      gettrackinfo: fake.calls('gettrackinfo').length,
      polledNumbers: fake
        .calls('gettrackinfo')
        .reduce((n, r) => n + (r.body as unknown[]).length, 0),
      stoptrack: fake.calls('stoptrack').length,
      requests: fake.server.requests.length,
    });
    /** Loops until nothing is due, then follows numbers deferred to fill a registration batch. */
    const refreshAll = async () => {
      let refreshed = 0;
      let failed = 0;
      for (;;) {
        let claimed = 0;
        await Promise.all(
          Array.from({ length: LOOPS }, async () => {
            for (;;) {
              const round = await refresher.runBatch(BATCH);
              refreshed += round.refreshed;
              failed += round.failed;
              claimed += round.claimed;
              if (round.claimed === 0) return;
            }
          }),
        );
        const [{ deferred }] = await db.query(
          `SELECT count(*)::int AS deferred FROM shipment
            WHERE workspace_id = $1 AND next_check_at > $2 AND next_check_at <= $3`,
          [ws.id, clock.now(), new Date(clock.now().getTime() + REGISTRATION_DEFER_MS)],
        );
        if (claimed === 0 || deferred === 0) return { refreshed, failed };
        clock.advance(REGISTRATION_DEFER_MS);
      }
    };

    // Phase 1: first refresh.
    let started = process.hrtime.bigint();
    const first = await refreshAll();
    const firstSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const afterFirst = counts();
    if (process.env.BENCH_DEBUG) {
      console.error(
        fake
          .calls('register')
          .map((r) => (r.body as unknown[]).length)
          .join(' '),
      );
    }
    const [tracked] = await db.query(
      `SELECT count(*) FILTER (WHERE tracking_status = 'in_transit')::int AS in_transit,
              count(*) FILTER (WHERE destination_carrier = 'usps')::int AS last_mile_usps,
              count(*) FILTER (WHERE expected_delivery_date IS NOT NULL)::int AS with_eta
         FROM shipment WHERE workspace_id = $1`,
      [ws.id],
    );

    // Phase 2: 12 hours later nothing is due.
    clock.set(new Date(now.getTime() + 12 * HOUR));
    await refreshAll();
    const afterIdle = counts();

    // Phase 3: pushes for PUSHED shipments, then the safety-net poll 25 hours after phase 1.
    clock.set(new Date(now.getTime() + 20 * HOUR));
    const numbers: Array<{ tracking_number: string }> = await db.query(
      `SELECT tracking_number FROM shipment WHERE workspace_id = $1 ORDER BY tracking_number`,
      [ws.id],
    );
    const pushedNumbers = numbers.slice(0, PUSHED).map((r) => r.tracking_number);
    const webhooks = app.get(TrackingWebhooks);
    started = process.hrtime.bigint();
    let pushApplied = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: PUSH_CONCURRENCY }, async () => {
        while (next < pushedNumbers.length) {
          const number = pushedNumbers[next++];
          const raw = JSON.stringify({ event: 'TRACKING_UPDATED', data: fake.trackData(number) });
          const receipt = await webhooks.receive(
            '17track',
            credentials.id,
            { sign: seventeenTrackSign(raw, fake.apiKey) },
            Buffer.from(raw),
            '127.0.0.1',
          );
          pushApplied += receipt.applied;
        }
      }),
    );
    const pushSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    clock.set(new Date(now.getTime() + 25 * HOUR));
    started = process.hrtime.bigint();
    const poll = await refreshAll();
    const pollSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const afterPoll = counts();
    const pushedSet = new Set(pushedNumbers);
    const polledPushed = fake
      .calls('gettrackinfo')
      .slice(afterIdle.gettrackinfo)
      .flatMap((r) => (r.body as Array<{ number: string }>).map((i) => i.number))
      .filter((n) => pushedSet.has(n)).length;

    const report = {
      shipments: SHIPMENTS,
      loops: LOOPS,
      batch: BATCH,
      firstRefresh: {
        seconds: Number(firstSeconds.toFixed(2)),
        shipmentsPerSecond: Math.round(first.refreshed / firstSeconds),
        refreshed: first.refreshed,
        failed: first.failed,
        ...afterFirst,
        registerRequestsPerShipment: Number((afterFirst.register / SHIPMENTS).toFixed(5)),
        providerRequestsPerShipment: Number((afterFirst.requests / SHIPMENTS).toFixed(5)),
        ...tracked,
      },
      twelveHoursLater: { providerRequests: afterIdle.requests - afterFirst.requests },
      pushes: {
        pushed: pushedNumbers.length,
        applied: pushApplied,
        seconds: Number(pushSeconds.toFixed(2)),
        pushesPerSecond: Math.round(pushedNumbers.length / pushSeconds),
      },
      safetyPoll: {
        seconds: Number(pollSeconds.toFixed(2)),
        refreshed: poll.refreshed,
        polledNumbers: afterPoll.polledNumbers - afterIdle.polledNumbers,
        polledPushedNumbers: polledPushed,
        newRegistrations: afterPoll.registerNumbers - afterIdle.registerNumbers,
        providerRequests: afterPoll.requests - afterIdle.requests,
      },
      node: process.version,
    };
    console.log(JSON.stringify(report, null, 2));
    const problems = [
      first.refreshed !== SHIPMENTS && 'not every shipment was refreshed',
      afterFirst.register / SHIPMENTS > 1 / 40 + 1e-9 && 'more than 1/40 register calls',
      afterFirst.registerNumbers !== SHIPMENTS && 'a number was registered twice',
      report.twelveHoursLater.providerRequests !== 0 && 'shipments kept by push were polled',
      polledPushed !== 0 && 'pushed shipments were polled',
      report.safetyPoll.polledNumbers !== SHIPMENTS - PUSHED &&
        'shipments without a push were not all polled',
      report.safetyPoll.newRegistrations !== 0 && 'numbers were registered again',
    ].filter(Boolean);
    if (problems.length > 0) {
      console.error(`FAILED: ${problems.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await app.close();
    await fake.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
