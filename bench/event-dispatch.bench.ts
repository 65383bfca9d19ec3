/**
 * Event dispatch: how fast the outbox's events are fanned out into deliveries
 * (`EventDispatch.dispatch`, step 1 of delivery), for events spread over `--workspaces`
 * workspaces of which one in ten has a webhook workflow wanting `shipment.status_changed`
 * (the others' events have no target: most events of most workspaces). Rounds of `--events`
 * events, dispatched by batches of `--batch`; events per second and the service's and the
 * database's CPU per event.
 *
 *   node -r ts-node/register/transpile-only bench/event-dispatch.bench.ts \
 *     [--events 10000] [--workspaces 20] [--batch 100] [--rounds 3]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_event_dispatch (created and
 * migrated when missing).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { databaseCpuUs, prepareServiceProcess, rerunAsStarted } from './lib/bench-setup';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    workspaces: { type: 'string', default: '20' },
    batch: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
  },
});
const DB_URL =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_event_dispatch';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  if (rerunAsStarted()) return;
  // Dispatch is driven by the bench alone.
  await prepareServiceProcess(DB_URL, { EVENT_DELIVERY_ENABLED: 'false' });
  const { AppModule } = await import('../src/app.module');
  const { EventDispatch } = await import('../src/events/event-dispatch');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  try {
    const db = app.get(DataSource);
    const dispatch = app.get(EventDispatch);
    const [team] = await db.query(`INSERT INTO team (name) VALUES ('bench-dispatch') RETURNING id`);
    const workspaces: string[] = [];
    for (let i = 0; i < Number(values.workspaces); i++) {
      const [ws] = await db.query(
        `INSERT INTO workspace (team_id, title) VALUES ($1, $2) RETURNING id`,
        [team.id, `bench-dispatch-${i}`],
      );
      workspaces.push(ws.id);
      if (i % 10 === 0)
        await db.query(
          // The service's own form (no `url`): it wants every shipment event.
          `INSERT INTO workflow (workspace_id, type, title, enabled, period)
           VALUES ($1, 'webhook', 'bench hook', true, 'immediately')`,
          [ws.id],
        );
    }
    const n = Number(values.events);
    const rates: number[] = [];
    const serviceUs: number[] = [];
    const databaseUs: number[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      await db.query(`DELETE FROM outbox_event WHERE workspace_id = ANY($1::uuid[])`, [workspaces]);
      await db.query(
        `INSERT INTO outbox_event (workspace_id, type, aggregate_type, aggregate_id, payload)
         SELECT ($1::uuid[])[1 + g % cardinality($1::uuid[])], 'shipment.status_changed',
                'shipment', gen_random_uuid(), '{"status": "in_transit"}'::jsonb
           FROM generate_series(1, $2) AS g`,
        [workspaces, n],
      );
      await db.query('VACUUM ANALYZE outbox_event, event_delivery');
      const started = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      const db0 = await databaseCpuUs(db);
      let done = 0;
      while (done < n) {
        const claimed = await dispatch.dispatch(Number(values.batch), new Date());
        if (claimed === 0) break;
        done += claimed;
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const used = process.cpuUsage(cpu);
      const dbUsed = (await databaseCpuUs(db)) - db0;
      rates.push(done / seconds);
      serviceUs.push((used.user + used.system) / done);
      databaseUs.push(dbUsed / done);
      console.error(
        `round ${round + 1}: ${Math.round(done / seconds)} events/s, ` +
          `${Math.round(serviceUs.at(-1)!)} µs service CPU and ` +
          `${Math.round(databaseUs.at(-1)!)} µs database CPU per event`,
      );
    }
    console.log(
      JSON.stringify(
        {
          events: n,
          workspaces: workspaces.length,
          batch: Number(values.batch),
          eventsPerSecond: Math.round(Math.max(...rates)),
          serviceCpuUsPerEvent: Math.round(median(serviceUs)),
          databaseCpuUsPerEvent: Math.round(median(databaseUs)),
          node: process.version,
        },
        null,
        2,
      ),
    );
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
