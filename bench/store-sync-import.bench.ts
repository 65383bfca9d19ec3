/**
 * Store sync import (issue 24): a Shopify store's orders (1-3 fulfillments each) backfilled by
 * the real run (StoreSyncRunner: pages sized from the query cost, next page read while one is
 * imported, every order through the resources' write pipeline with its rules, tracking on
 * create and outbox events) from the Shopify fake in a process of its own
 * (bench/servers/shopify-fake-server.ts).
 *
 * - `--bucket standard|scaled`: against the shop's cost bucket (Standard: 100 points/s, 1 000
 *   points; `scaled`: 10 x both). Reports the run's time against the least the bucket allows
 *   for the points the fake charged: (charged - bucket size) / restore rate. Goal >= 0.8.
 * - `--bucket none`: no bucket. Reports orders/s against a bare script writing the same rows
 *   (order, order items, shipments, shipment items, order links) for the same store orders in
 *   one transaction per order on one connection, no pipeline. Goal >= 0.5.
 *
 *   node -r ts-node/register/transpile-only bench/store-sync-import.bench.ts \
 *     [--orders 10000] [--bucket none|standard|scaled] [--warm-up 150] [--rounds 3] [--statements]
 *
 * `--warm-up`: without a bucket, both sides first import the orders of a smaller shop (a
 * Shopify fake of its own, another seed) untimed, as the HTTP benches' warm-up rounds: the
 * JIT compiles the service's pipeline (about 1 300 functions optimized during a cold
 * 1 500-order import) before it is timed, and the bare script starts as warm as the pg driver
 * the import left behind. 0 times a cold start.
 *
 * `--rounds`: without a bucket, alternating rounds (the service's import into a new workspace,
 * then the bare script's), the medians of each compared; every round's ratio is listed too.
 *
 * `--statements`: counts the statements the service's import sends (pg's Client.prototype.query
 * wrapped in this process, only while the run imports: the bench's set-up and the bare script
 * are left out), per order, grouped by their first words; prints the top groups and the total.
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_store_sync (created and
 * migrated when missing); every run imports into a workspace of its own. Plan limits are off
 * (BILLING_ENFORCE_ENTITLEMENTS=false): the team has no subscription.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { PrincipalLoader } from '../src/access/principal-loader';
import { AppModule } from '../src/app.module';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { ResourceWriter } from '../src/hydra/write/resource-writer';
import { mapStoreOrder } from '../src/store-sync/rules/order-mapping';
import type { StoreOrder } from '../src/store-sync/store-platform';
import { connectStore } from '../src/store-sync/store-platforms';
import { StoreSyncRunner } from '../src/store-sync/sync/store-sync-runner';
import { Workflow } from '../src/workflows/workflow.entity';
import { WorkflowsService } from '../src/workflows/workflows.service';
import {
  cpuMs,
  ensureDatabase,
  machineLoad,
  postgresCpuMs,
  rerunAsStarted,
  startScript,
} from './lib/bench-setup';
import { median } from './lib/load-generator';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000' },
    bucket: { type: 'string', default: 'none' },
    statements: { type: 'boolean', default: false },
    'warm-up': { type: 'string', default: '150' },
    rounds: { type: 'string', default: '3' },
  },
});
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_store_sync';
const ORDERS = Number(values.orders);
const BUCKET = values.bucket!;
const WARM_UP = BUCKET === 'none' ? Number(values['warm-up']) : 0;
/** With a bucket, one round: the bucket is the limit, and a round takes minutes. */
const ROUNDS = BUCKET === 'none' ? Math.max(1, Number(values.rounds)) : 1;

/**
 * Statements sent through pg while `counting`, by their first words (literals and placeholders
 * past them do not split a group). Wraps the prototype, so every pool client of the service is
 * counted, and the bench's own client too: it is left alone while the import runs.
 */
const statements = { counting: false, byGroup: new Map<string, number>(), total: 0 };

function countStatements(): void {
  const original = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    if (statements.counting) {
      const config = args[0] as string | { text?: string };
      const text = typeof config === 'string' ? config : (config?.text ?? '');
      const group = text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 5).join(' ').slice(0, 70);
      statements.byGroup.set(group, (statements.byGroup.get(group) ?? 0) + 1);
      statements.total++;
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
}

/** The counted statements per order: the top groups and the total. */
function statementReport(orders: number, top = 40) {
  const perOrder = (n: number) => +(n / orders).toFixed(2);
  const groups = [...statements.byGroup].sort((a, b) => b[1] - a[1]);
  return {
    total: statements.total,
    perOrder: perOrder(statements.total),
    top: Object.fromEntries(groups.slice(0, top).map(([g, n]) => [g, perOrder(n)])),
    rest: perOrder(groups.slice(top).reduce((sum, [, n]) => sum + n, 0)),
  };
}

interface Tenant {
  userId: string;
  teamId: string;
  workspaceId: string;
}

async function tenant(client: Client): Promise<Tenant> {
  const email = `bench-${randomBytes(6).toString('hex')}@example.test`;
  const user = await client.query(
    `INSERT INTO "user" (email, email_verified) VALUES ($1, true) RETURNING id`,
    [email],
  );
  const team = await client.query(`INSERT INTO team (name) VALUES ($1) RETURNING id`, [email]);
  await client.query(
    `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'owner')`,
    [team.rows[0].id, user.rows[0].id],
  );
  const workspace = await client.query(
    `INSERT INTO workspace (team_id, title) VALUES ($1, 'Bench store') RETURNING id`,
    [team.rows[0].id],
  );
  return { userId: user.rows[0].id, teamId: team.rows[0].id, workspaceId: workspace.rows[0].id };
}

/** The import through the service: a Shopify workflow created as POST /workflows would, run. */
async function serviceImport(
  ctx: INestApplicationContext,
  t: Tenant,
  shop: Shop,
  fakePid: number,
  /** Whether its statements are counted (`--statements`). */
  count: boolean,
) {
  const principal = (await ctx.get(PrincipalLoader).forUser(t.userId))!;
  const id = await ctx.get(ResourceWriter).create(
    ctx.get(ResourceRegistry).get(Workflow),
    {
      title: 'Bench shop',
      type: 'shopify',
      workspace: `/workspaces/${t.workspaceId}`,
      period: 'manual',
      firstTimeSetupPassed: true,
      credentials: {
        type: 'shopify',
        parameters: { shopDomain: shop.shopDomain },
        secrets: { accessToken: shop.accessToken, webhookSecret: shop.clientSecret },
      },
    },
    principal,
    ctx.get(WorkflowsService),
  );
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const database = postgresCpuMs();
  const store = cpuMs(fakePid);
  statements.counting = count;
  const result = await ctx
    .get(StoreSyncRunner)
    .run(id, 'execute')
    .finally(() => {
      statements.counting = false;
    });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // The service's own CPU (user + system), which a loaded machine does not inflate much.
  const { user, system } = process.cpuUsage(cpu);
  return {
    id,
    result,
    seconds,
    cpuSeconds: (user + system) / 1e6,
    systemSeconds: system / 1e6,
    databaseCpuMs: postgresCpuMs() - database,
    storeCpuMs: cpuMs(fakePid) - store,
  };
}

interface Shop {
  shopDomain: string;
  accessToken: string;
  clientSecret: string;
  orders: number;
  parcels: number;
}

/** Every order of the shop, read with the client (untimed): the bare script's input. */
async function readAll(shop: Shop): Promise<StoreOrder[]> {
  const client = connectStore(
    {
      platform: 'shopify',
      shopDomain: shop.shopDomain,
      baseUrl: `http://${shop.shopDomain}`,
      auth: { accessToken: shop.accessToken },
    },
    { allowedHosts: ['127.0.0.1'], timeoutMs: 60_000 },
  );
  const orders: StoreOrder[] = [];
  let page = null;
  const since = new Date(Date.now() - 30 * 86_400_000);
  do {
    const answer = await client.listChangedOrders({ since, page });
    orders.push(...answer.orders);
    page = answer.next;
  } while (page);
  client.close();
  return orders;
}

/** The same rows written the shortest way: one transaction per order, one connection. */
async function bareImport(client: Client, t: Tenant, orders: readonly StoreOrder[]) {
  const started = process.hrtime.bigint();
  for (const store of orders) {
    const { order, items, shipments } = mapStoreOrder(store);
    await client.query('BEGIN');
    const o = await client.query(
      `INSERT INTO "order" (workspace_id, order_number, external_source_integration,
         external_source_sync_id, subtotal, total, currency, email, phone_number,
         shipping_address_city, shipping_address_country_iso2, shipping_address_postcode,
         shipping_address_address_line1, shipping_address_first_name, shipping_address_last_name)
       VALUES ($1, $2, 'bench', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [
        t.workspaceId,
        `${order.orderNumber}-${t.workspaceId.slice(0, 8)}`,
        order.externalSourceSyncId,
        order.subtotal,
        order.total,
        order.currency ?? 'USD',
        order.email,
        order.phoneNumber,
        order.shippingAddress.city,
        order.shippingAddress.countryIso2,
        order.shippingAddress.postcode,
        order.shippingAddress.addressLine1,
        order.shippingAddress.firstName,
        order.shippingAddress.lastName,
      ],
    );
    const orderId = o.rows[0].id as string;
    const itemIds = new Map<string, string>();
    for (const item of items) {
      const r = await client.query(
        `INSERT INTO order_item (workspace_id, order_id, product_name, product_sku, product_options,
           qty, price, external_product_id, external_source_sync_id, image_url)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [
          t.workspaceId,
          orderId,
          item.productName,
          item.productSku,
          JSON.stringify(item.productOptions),
          item.qty,
          item.price,
          item.externalProductId,
          item.externalSourceSyncId,
          item.imageUrl,
        ],
      );
      itemIds.set(item.externalSourceSyncId, r.rows[0].id);
    }
    for (const shipment of shipments) {
      const s = await client.query(
        `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier, email, phone_number,
           order_numbers, external_source_sync_id, address_city, address_country_iso2,
           address_postcode, address_address_line1, address_first_name, address_last_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
        [
          t.workspaceId,
          shipment.trackingNumber,
          shipment.originCarrier ?? 'tm-test',
          shipment.email,
          shipment.phoneNumber,
          shipment.orderNumbers,
          shipment.externalSourceSyncId,
          shipment.address.city,
          shipment.address.countryIso2,
          shipment.address.postcode,
          shipment.address.addressLine1,
          shipment.address.firstName,
          shipment.address.lastName,
        ],
      );
      const shipmentId = s.rows[0].id as string;
      await client.query('INSERT INTO shipment_order (shipment_id, order_id) VALUES ($1, $2)', [
        shipmentId,
        orderId,
      ]);
      for (const item of shipment.items)
        await client.query(
          `INSERT INTO shipment_item (workspace_id, shipment_id, order_item_id, qty)
           VALUES ($1, $2, $3, $4)`,
          [t.workspaceId, shipmentId, itemIds.get(item.orderItemSyncId), item.qty],
        );
    }
    await client.query('COMMIT');
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** The run's record, once checked to have imported every order of the shop (else throws). */
async function importedInFull(
  client: Client,
  runId: string | null,
  shop: Shop,
): Promise<{ status: string; counts: Record<string, number> }> {
  const [row] = (
    await client.query('SELECT status, counts, errors FROM workflow_run WHERE id = $1', [runId])
  ).rows;
  if (row?.status !== 'success' || row.counts.ordersCreated !== shop.orders)
    throw new Error(`the run did not import everything: ${JSON.stringify(row ?? null)}`);
  return row;
}

/** Both sides import a smaller shop first, untimed (`--warm-up`); it must import in full. */
async function warmUp(ctx: INestApplicationContext, client: Client): Promise<void> {
  const fake = await startScript('bench/servers/shopify-fake-server.ts', {
    ORDERS: String(WARM_UP),
    SEED: '2',
    BUCKET: 'none',
  });
  try {
    const shop = (await (await fetch(`http://127.0.0.1:${fake.port}/__bench/shop`)).json()) as Shop;
    console.error(`warming up on ${shop.orders} orders...`);
    const run = await serviceImport(ctx, await tenant(client), shop, fake.child.pid!, false);
    await importedInFull(client, run.result.runId, shop);
    await bareImport(client, await tenant(client), await readAll(shop));
  } finally {
    fake.child.kill('SIGTERM');
  }
}

/** How often the rounds' tables are analyzed, standing in for autovacuum (off on this server). */
const ANALYZE_EVERY_MS = 20_000;

/** ANALYZE on a connection of its own every ANALYZE_EVERY_MS, until `stop`. */
async function startAnalyzer(): Promise<{ stop(): Promise<void> }> {
  const own = new Client({ connectionString: DB_URL });
  await own.connect();
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => own.query('ANALYZE')).catch(() => undefined);
  }, ANALYZE_EVERY_MS);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await own.end();
    },
  };
}

async function main(): Promise<void> {
  if (rerunAsStarted()) return;
  if (values.statements) countStatements();
  await ensureDatabase(DB_URL);
  const db = await createDataSource(DB_URL).initialize();
  await runMigrationsLocked(db);
  await db.destroy();
  const fake = await startScript('bench/servers/shopify-fake-server.ts', {
    ORDERS: String(ORDERS),
    BUCKET,
  });
  const fakeUrl = `http://127.0.0.1:${fake.port}`;
  const shop = (await (await fetch(`${fakeUrl}/__bench/shop`)).json()) as Shop;
  Object.assign(process.env, {
    DATABASE_URL: DB_URL,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    STORE_SYNC_ALLOWED_HOSTS: '127.0.0.1',
    PUBLIC_URL: 'http://127.0.0.1:9',
    JOB_WORKERS_ENABLED: 'false',
    STORE_SYNC_ENABLED: 'false',
    EVENT_DELIVERY_ENABLED: 'false',
    TRACKING_REFRESH_ENABLED: 'false',
    RETENTION_ENABLED: 'false',
    BILLING_ENFORCE_ENTITLEMENTS: 'false',
  });
  const client = new Client({ connectionString: DB_URL });
  await client.connect();
  const ctx = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  let analyzer: { stop(): Promise<void> } | null = null;
  try {
    console.error(
      `importing ${shop.orders} orders (${shop.parcels} fulfillments), bucket ${BUCKET}...`,
    );
    if (WARM_UP > 0) await warmUp(ctx, client);
    // This server runs with autovacuum off, so nothing analyzes the tables unless the bench
    // does. Without statistics, or with those of empty tables, the planner seq-scans the order
    // lines, items and shipments and the import's generic plans keep those scans: on a new
    // database each round took longer than the one before (16, 30, 47 s for 600 orders).
    // Analyzed as autovacuum would in production, once the warm-up has written rows, and then
    // every ANALYZE_EVERY_MS while the rounds write (autovacuum analyzes a table once a tenth
    // of it changed): from a new database, 10 000 orders grow the tables a hundredfold, and
    // plans made from the warm-up's statistics seq-scanned them (rounds of 130, 185, 303 s).
    await client.query('ANALYZE');
    analyzer = await startAnalyzer();
    const load = machineLoad();
    // Alternating rounds (the service's import, then the bare script's), medians of each: on a
    // shared VM one round of either moves by a third.
    const runs: Array<Awaited<ReturnType<typeof serviceImport>>> = [];
    const bares: Array<{ seconds: number; databaseCpuMs: number }> = [];
    let orders: StoreOrder[] | null = null;
    let first: { status: string; counts: Record<string, number> } | null = null;
    for (let round = 0; round < ROUNDS; round++) {
      const run = await serviceImport(
        ctx,
        await tenant(client),
        shop,
        fake.child.pid!,
        round === 0 && values.statements!,
      );
      const row = await importedInFull(client, run.result.runId, shop);
      first ??= row;
      runs.push(run);
      if (BUCKET !== 'none') continue;
      orders ??= await readAll(shop);
      const bareTenant = await tenant(client);
      // Its own backend's CPU: summing every PostgreSQL process lost the time of the service's
      // pool connections that idled out meanwhile (negative readings).
      const backend = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const database = cpuMs(backend);
      const seconds = await bareImport(client, bareTenant, orders);
      bares.push({ seconds, databaseCpuMs: cpuMs(backend) - database });
    }
    const perOrder = (pick: (r: (typeof runs)[number]) => number) =>
      +(median(runs.map(pick)) / shop.orders).toFixed(1);
    const seconds = median(runs.map((r) => r.seconds));
    const report: Record<string, unknown> = {
      orders: shop.orders,
      fulfillments: shop.parcels,
      bucket: BUCKET,
      warmUpOrders: WARM_UP,
      // The V8 flags of `npm start` this process runs with (rerunAsStarted).
      nodeFlags: process.execArgv.filter((arg) => arg.startsWith('--')),
      rounds: ROUNDS,
      status: first!.status,
      ordersCreated: first!.counts.ordersCreated,
      shipmentsCreated: first!.counts.shipmentsCreated,
      seconds: +seconds.toFixed(1),
      roundSeconds: runs.map((r) => +r.seconds.toFixed(1)),
      ordersPerSecond: +(shop.orders / seconds).toFixed(1),
      serviceCpuMsPerOrder: perOrder((r) => r.cpuSeconds * 1000),
      // Of which the kernel's (system): on loopback, mostly the round trips to PostgreSQL.
      serviceSystemCpuMsPerOrder: perOrder((r) => r.systemSeconds * 1000),
      // Every PostgreSQL process's CPU (user + system) over the run, from /proc.
      databaseCpuMsPerOrder: perOrder((r) => r.databaseCpuMs),
      // The Shopify fake's (its own process, on the same cores): the store's side of the pages.
      storeCpuMsPerOrder: perOrder((r) => r.storeCpuMs),
      load,
    };
    if (BUCKET === 'none') {
      const bare = median(bares.map((b) => b.seconds));
      report.bareDatabaseCpuMsPerOrder = +(
        median(bares.map((b) => b.databaseCpuMs)) / shop.orders
      ).toFixed(1);
      report.bareSeconds = +bare.toFixed(1);
      report.bareRoundSeconds = bares.map((b) => +b.seconds.toFixed(1));
      report.bareOrdersPerSecond = +(shop.orders / bare).toFixed(1);
      report.roundRatios = runs.map((r, i) => +(bares[i].seconds / r.seconds).toFixed(2));
      report.ratio = +(bare / seconds).toFixed(2);
      report.goal = 0.5;
    } else {
      const costs = (await (await fetch(`${fakeUrl}/__bench/costs`)).json()) as {
        queries: number;
        throttled: number;
        actual: number;
        bucket: { maximumAvailable: number; restoreRate: number };
      };
      const least =
        Math.max(0, costs.actual - costs.bucket.maximumAvailable) / costs.bucket.restoreRate;
      Object.assign(report, {
        queries: costs.queries,
        throttledAnswers: costs.throttled,
        pointsCharged: costs.actual,
        leastSeconds: +least.toFixed(1),
        ratio: +(least / seconds).toFixed(2),
        goal: 0.8,
      });
    }
    if (values.statements) report.statements = statementReport(shop.orders);
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await analyzer?.stop();
    await ctx.close();
    await client.end();
    fake.child.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
