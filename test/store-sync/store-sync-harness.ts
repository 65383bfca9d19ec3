import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../../src/events/event-delivery';
import { StoreSyncRunner } from '../../src/store-sync/sync/store-sync-runner';
import { uniqueSubdomain } from '../factories/media.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { setAsideEarlierEvents } from '../support/event-app';
import { api } from '../support/http';
import { until } from '../support/until';

/**
 * The e2e specs every store platform shares (issue 24's "done"), declared from a table: a spec
 * describes its store (a fake on loopback speaking the platform's protocol, how the merchant
 * changes an order, how the store delivers webhooks, what it records of tracking sent back) and
 * `describeStoreSync` declares the tests: connect, backfill, webhook, change imported, tracking
 * change sent back once, runs with counts; a forged delivery; the store down; refused
 * credentials; two nodes; deleteData.
 */

/** A store order as the test compares it with what was imported. */
export interface StoreOrderView {
  id: string;
  number: string;
  email: string;
  lines: Array<{ id: string; sku: string; qty: number }>;
  parcels: Array<{
    id: string;
    trackingNumber: string;
    lines: Array<{ lineId: string; qty: number }>;
  }>;
}

/** One store (a fake) as the shared tests drive it. */
export interface StoreUnderTest {
  /** The workflow's credentials; `refused`: with a token the store does not take. */
  credentials(refused?: boolean): {
    parameters: Record<string, unknown>;
    secrets: Record<string, string>;
  };
  orders(): StoreOrderView[];
  /** The merchant changes the order's e-mail and its first parcel's tracking number. */
  change(orderId: string, email: string, trackingNumber: string): void;
  /** The store's webhooks tell the receiver about the order; their statuses. */
  notify(orderId: string): Promise<number[]>;
  /** One delivery about the order, received twice (a retry): the receiver's answers. */
  retried(orderId: string): Promise<Array<{ status: number; outcome: unknown }>>;
  /** A delivery about the order without the store's proof (wrong secret); its status. */
  forged(receiverUrl: string, orderId: string): Promise<number>;
  /** Webhooks subscribed to this URL. */
  subscribed(url: string): number;
  /** What the store recorded of tracking sent back for the order (events, notes, statuses). */
  updates(orderId: string): string[];
  /** Whether the order is completed in the store (workflows that ask for it on delivery). */
  completed?(orderId: string): boolean;
  down(mode: 'http503' | false): Promise<void>;
  /** The next run takes a while (the store throttles). */
  slowDown(): void;
  close(): Promise<void>;
}

export interface StoreSpec {
  readonly platform: 'shopify' | 'woocommerce' | 'bigcommerce';
  /** Environment of the app (set before it starts). */
  env?(): Promise<Record<string, string>>;
  /** A fresh store with `count` orders changed in the last days. */
  start(count: number): Promise<StoreUnderTest>;
  /** What one delivered parcel makes the store record (e.g. `DELIVERED`, a note's words). */
  deliveredUpdate: RegExp;
  close?(): Promise<void>;
  /** Tests of the platform's own (declared inside the shared describe, with its kit). */
  extra?(kit: StoreSyncKit): void;
}

/** What a platform's own tests use of the shared setup (valid inside its tests). */
export interface StoreSyncKit {
  app(): NestExpressApplication;
  start(count: number): Promise<StoreUnderTest>;
  /** The workflow created with the store's credentials (its first run queued). */
  connect(tenant: Tenant, store: StoreUnderTest): Promise<Record<string, any>>;
  finishedRuns(tenant: Tenant, workflowId: string, n: number): Promise<Array<Record<string, any>>>;
  /** The records of a collection the workflow imported. */
  imported(
    tenant: Tenant,
    collection: string,
    workflowId: string,
  ): Promise<Array<Record<string, any>>>;
  receiverUrl(workflowId: string): string;
}

/** A sandbox number the tracking engine follows without a provider (TM<status><n>TM). */
export function sandboxNumber(status: '102' | '204' | '418' | '200'): string {
  return `TM${status}${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}TM`;
}

/**
 * A Shopify workflow of the tenant's workspace, first setup passed, run on demand; with the
 * store's credentials it is run by this service, without them it stays remote (its records'
 * integration only). Its id.
 */
export async function shopifyWorkflow(
  app: NestExpressApplication,
  tenant: Tenant,
  credentials: { shopDomain: string; accessToken: string; webhookSecret: string } | null,
): Promise<string> {
  const res = await api(app, { token: tenant.token })
    .json()
    .post('/workflows', {
      title: 'Shop',
      type: 'shopify',
      workspace: `/workspaces/${tenant.workspaceId}`,
      period: 'manual',
      firstTimeSetupPassed: true,
      notificationEmails: [],
      ...(credentials
        ? {
            credentials: {
              type: 'shopify',
              parameters: { shopDomain: credentials.shopDomain },
              secrets: {
                accessToken: credentials.accessToken,
                webhookSecret: credentials.webhookSecret,
              },
            },
          }
        : {}),
    })
    .expect(201);
  return res.body.id as string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Json = Record<string, any>;

export function describeStoreSync(spec: StoreSpec): void {
  describe(`store sync: ${spec.platform}`, () => {
    let app: NestExpressApplication;
    /** A second node on the same database (its job workers take runs too). */
    let second: NestExpressApplication;
    let db: DataSource;
    let baseUrl: string;
    const saved = { ...process.env };
    const stores: StoreUnderTest[] = [];

    beforeAll(async () => {
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      Object.assign(process.env, {
        PUBLIC_URL: baseUrl,
        STORE_SYNC_ALLOWED_HOSTS: '127.0.0.1',
        // The retries of a push come at once in tests (the delivery loop is driven by hand).
        EVENT_DELIVERY_RETRY_BASE_SECONDS: '1',
        ...(await spec.env?.()),
      });
      app = await createTestApp();
      await app.listen(port, '127.0.0.1');
      db = app.get(DataSource);
      await setAsideEarlierEvents(db);
      // Started once: passport's bearer strategy is process-wide, so a node closed mid-file
      // would leave the other authenticating through a closed pool.
      second = await createTestApp();
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      await closeTestApp(second);
      await closeTestApp(app);
      await spec.close?.();
      process.env = saved;
    });

    const start = async (count: number) => {
      const store = await spec.start(count);
      stores.push(store);
      return store;
    };
    const http = (tenant: Tenant) => api(app, { token: tenant.token });
    const receiverUrl = (workflowId: string) =>
      `${baseUrl}/public/store_webhooks/${spec.platform}/${workflowId}`;

    /** POST /workflows with credentials of the platform, set up: its first run is queued. */
    async function connect(tenant: Tenant, store: StoreUnderTest, refused = false) {
      const res = await http(tenant)
        .post('/workflows', {
          title: `${spec.platform} store`,
          type: spec.platform,
          workspace: `/workspaces/${tenant.workspaceId}`,
          period: 'manual',
          firstTimeSetupPassed: true,
          notificationEmails: [],
          credentials: { type: spec.platform, ...store.credentials(refused) },
        })
        .expect(201);
      expect(res.body).toMatchObject({
        passive: false,
        remote: false,
        firstTimeSetupRequired: false,
      });
      return res.body as Json;
    }

    async function runs(tenant: Tenant, workflowId: string): Promise<Json[]> {
      const res = await http(tenant)
        .get(`/workflows/${workflowId}/runs?order[createdAt]=asc&itemsPerPage=100`)
        .expect(200);
      return res.body['hydra:member'] as Json[];
    }

    /**
     * Waits until the workflow has `n` finished runs, none running and its lease given back (a
     * run releases it just after recording its end); answers the runs.
     */
    async function finishedRuns(tenant: Tenant, workflowId: string, n: number): Promise<Json[]> {
      let all: Json[] = [];
      await until(async () => {
        all = await runs(tenant, workflowId);
        const [state] = await db.query(
          'SELECT lease_owner FROM store_sync_state WHERE workflow_id = $1',
          [workflowId],
        );
        return (
          all.filter((r) => r.status !== 'running').length >= n &&
          all.every((r) => r.status !== 'running') &&
          !state?.lease_owner
        );
      }, 40_000);
      return all;
    }

    async function list(tenant: Tenant, path: string): Promise<Json[]> {
      const res = await http(tenant).get(path).expect(200);
      return res.body['hydra:member'] as Json[];
    }

    const imported = (tenant: Tenant, collection: string, workflowId: string) =>
      list(
        tenant,
        `/${collection}?externalSourceIntegration=/workflows/${workflowId}&itemsPerPage=500`,
      );

    const execute = (tenant: Tenant) =>
      http(tenant)
        .post('/workflows/execute', { workspace: `/workspaces/${tenant.workspaceId}` })
        .expect(200);

    it('backfills the store, imports a webhook’s change and sends one tracking update back', async () => {
      const store = await start(4);
      const tenant = await createTenant(app);
      // The workspace's first page is its default: notes link the parcel's page there.
      await http(tenant)
        .post('/tracking_pages', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          subdomain: uniqueSubdomain('store-sync'),
          title: 'Store',
        })
        .expect(201);
      const workflow = await connect(tenant, store);
      const id = workflow.id as string;

      // Backfill: orders, lines, parcels and parcel lines as the store has them.
      const [backfill] = await finishedRuns(tenant, id, 1);
      const expected = store.orders();
      const parcels = expected.flatMap((o) => o.parcels);
      expect(backfill).toMatchObject({
        status: 'success',
        errors: null,
        counts: expect.objectContaining({
          ordersRead: expected.length,
          ordersCreated: expected.length,
          ordersFailed: 0,
          shipmentsCreated: parcels.length,
        }),
      });
      const orders = await imported(tenant, 'orders', id);
      expect(orders).toHaveLength(expected.length);
      const shipments = await imported(tenant, 'shipments', id);
      expect(shipments).toHaveLength(parcels.length);
      for (const want of expected) {
        const order = orders.find((o) => o.externalSourceSyncId === want.id)!;
        expect(order).toMatchObject({ orderNumber: want.number, email: want.email });
        const items = await list(tenant, `/orders/${order.id}/items`);
        expect(items.map((i) => [i.externalSourceSyncId, i.productSku, i.qty]).sort()).toEqual(
          want.lines.map((l) => [l.id, l.sku, l.qty]).sort(),
        );
        for (const parcel of want.parcels) {
          const shipment = shipments.find((s) => s.externalSourceSyncId === parcel.id)!;
          expect(shipment).toMatchObject({
            trackingNumber: parcel.trackingNumber,
            email: want.email,
            orderNumbers: [want.number],
          });
          const shipped = await list(tenant, `/shipments/${shipment.id}/shipment_items`);
          const byItem = (iri: string) =>
            items.find((i) => i['@id'] === iri)?.externalSourceSyncId as string;
          expect(shipped.map((s) => [byItem(s.orderItem), s.qty]).sort()).toEqual(
            parcel.lines.map((l) => [l.lineId, l.qty]).sort(),
          );
        }
      }
      expect(store.subscribed(receiverUrl(id))).toBeGreaterThan(0);
      const stored = await http(tenant).get(`/workflows/${id}`).expect(200);
      expect(stored.body).toMatchObject({ runInProgress: false, lastRunDate: expect.any(String) });

      // A webhook: the merchant changed an order's e-mail and a parcel's number.
      const changed = expected[0];
      const newNumber = sandboxNumber('204');
      store.change(changed.id, 'changed@example.com', newNumber);
      expect(await store.notify(changed.id)).toEqual(expect.arrayContaining([200]));
      const [, webhookRun] = await finishedRuns(tenant, id, 2);
      expect(webhookRun).toMatchObject({
        status: 'success',
        counts: expect.objectContaining({
          webhooksReceived: expect.any(Number),
          ordersUpdated: 1,
          ordersCreated: 0,
          shipmentsMoved: 1,
          shipmentsCreated: 0,
        }),
      });
      expect(webhookRun.counts.webhooksReceived).toBeGreaterThanOrEqual(1);
      const movedFrom = shipments.find((s) => s.externalSourceSyncId === changed.parcels[0].id)!;
      const moved = await http(tenant).get(`/shipments/${movedFrom.id}`).expect(200);
      expect(moved.body).toMatchObject({ trackingNumber: newNumber, email: 'changed@example.com' });
      expect(await imported(tenant, 'shipments', id)).toHaveLength(parcels.length);
      const order = await http(tenant)
        .get(`/orders/${orders.find((o) => o.externalSourceSyncId === changed.id)!.id}`)
        .expect(200);
      expect(order.body.email).toBe('changed@example.com');

      // A tracking change of another order's parcel: the store hears of it exactly once.
      const delivery = app.get(EventDelivery);
      await delivery.runUntilIdle();
      const target = expected[2];
      const shipment = (await imported(tenant, 'shipments', id)).find(
        (s) => s.externalSourceSyncId === target.parcels[0].id,
      )!;
      expect(shipment.trackingStatus).not.toBe('delivered');
      const before = store.updates(target.id);
      await http(tenant)
        .post('/tracking/ingest', {
          shipment: shipment['@id'],
          checkpoints: [
            {
              id: 'delivered-1',
              checkpointDate: new Date().toISOString(),
              status: 'delivered',
              info: 'Left at the front door',
              location: 'Springfield',
              countryIso2: 'US',
            },
          ],
        })
        .expect(200);
      await delivery.runUntilIdle();
      await delivery.runUntilIdle();
      const after = store.updates(target.id);
      expect(after.slice(before.length)).toEqual([expect.stringMatching(spec.deliveredUpdate)]);
      // Its only parcel delivered: the order is completed (asked once at most).
      if (store.completed) expect(store.completed(target.id)).toBe(true);

      // The next run counts what was sent back.
      await execute(tenant);
      const all = await finishedRuns(tenant, id, 3);
      expect(all[2].counts.eventsSent).toBeGreaterThanOrEqual(1);
      expect(all[2].counts).toMatchObject({ ordersCreated: 0, shipmentsCreated: 0 });
    });

    it('answers 401 to a delivery without the store’s proof and changes nothing; a retry is one', async () => {
      const store = await start(2);
      const tenant = await createTenant(app);
      const { id } = await connect(tenant, store);
      await finishedRuns(tenant, id, 1);
      const [order] = store.orders();
      store.change(order.id, 'forged@example.com', sandboxNumber('102'));
      expect(await store.forged(receiverUrl(id), order.id)).toBe(401);
      const [{ n }] = await db.query(
        'SELECT count(*)::int AS n FROM store_sync_inbox WHERE workflow_id = $1',
        [id],
      );
      expect(n).toBe(0);
      await api(app).post(receiverUrl(id).slice(baseUrl.length), {}).expect(401);
      expect(await runs(tenant, id)).toHaveLength(1);
      const [saved] = await imported(tenant, 'orders', id).then((all) =>
        all.filter((o) => o.externalSourceSyncId === order.id),
      );
      expect(saved.email).not.toBe('forged@example.com');
      // Unknown workflows and types have no receiver.
      await api(app)
        .post(`/public/store_webhooks/${spec.platform}/00000000-0000-4000-8000-000000000000`, {})
        .expect(404);
      await api(app).post(`/public/store_webhooks/magento/${id}`, {}).expect(404);

      // The genuine delivery, twice: imported once.
      const answers = await store.retried(order.id);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      await finishedRuns(tenant, id, 2);
      const orders = await imported(tenant, 'orders', id);
      expect(orders).toHaveLength(2);
      expect(orders.find((o) => o.externalSourceSyncId === order.id)!.email).toBe(
        'forged@example.com',
      );
      expect(await imported(tenant, 'shipments', id)).toHaveLength(
        store.orders().flatMap((o) => o.parcels).length,
      );
    });

    it('fails the run while the store is down, loses nothing, and catches up next time', async () => {
      const store = await start(2);
      const tenant = await createTenant(app);
      const { id } = await connect(tenant, store);
      await finishedRuns(tenant, id, 1);
      const [{ changed_up_to: cursor }] = await db.query(
        'SELECT changed_up_to FROM store_sync_state WHERE workflow_id = $1',
        [id],
      );
      const [order] = store.orders();
      const number = sandboxNumber('418');
      store.change(order.id, 'later@example.com', number);
      await store.down('http503');
      await execute(tenant);
      const [, failed] = await finishedRuns(tenant, id, 2);
      expect(failed.status).toBe('failed');
      expect(failed.errors).toMatch(/unavailable: HTTP 503/);
      const [{ changed_up_to: still }] = await db.query(
        'SELECT changed_up_to FROM store_sync_state WHERE workflow_id = $1',
        [id],
      );
      expect(still).toEqual(cursor);
      await store.down(false);
      await execute(tenant);
      const [, , caughtUp] = await finishedRuns(tenant, id, 3);
      expect(caughtUp).toMatchObject({
        status: 'success',
        counts: expect.objectContaining({ ordersUpdated: 1, shipmentsMoved: 1 }),
      });
      const shipments = await imported(tenant, 'shipments', id);
      expect(shipments.map((s) => s.trackingNumber)).toContain(number);
    });

    it('marks credentials the store refuses and tells the team, without trying again', async () => {
      const store = await start(1);
      const tenant = await createTenant(app);
      const workflow = await connect(tenant, store, true);
      const [failed] = await finishedRuns(tenant, workflow.id, 1);
      expect(failed).toMatchObject({
        status: 'failed',
        errors: expect.stringMatching(/refused the credentials/),
      });
      const credentials = await http(tenant).get(workflow.credentials).expect(200);
      expect(credentials.body.rejectedAt).toEqual(expect.any(String));
      const notices = await list(tenant, '/notifications?tag=store_credentials_rejected');
      expect(notices).toHaveLength(1);
      // A pull asked for says why, without calling the store.
      await execute(tenant);
      const [, again] = await finishedRuns(tenant, workflow.id, 2);
      expect(again).toMatchObject({
        status: 'failed',
        errors: expect.stringMatching(/refused these credentials before/),
      });
      expect(await list(tenant, '/notifications?tag=store_credentials_rejected')).toHaveLength(1);
      expect(await imported(tenant, 'orders', workflow.id)).toHaveLength(0);
    });

    it('runs one sync at a time when two nodes run the same workflow', async () => {
      const store = await start(3);
      const tenant = await createTenant(app);
      const { id } = await connect(tenant, store);
      await finishedRuns(tenant, id, 1);
      await db.query(
        'UPDATE store_sync_state SET pull_requested_at = now() WHERE workflow_id = $1',
        [id],
      );
      store.slowDown();
      const results = await Promise.all([
        app.get(StoreSyncRunner).run(id, 'execute'),
        second.get(StoreSyncRunner).run(id, 'execute'),
      ]);
      expect(results.map((r) => r.outcome).sort()).toEqual(['busy', 'ran']);
      const all = await finishedRuns(tenant, id, 2);
      // No two runs ever overlapped.
      const spans = all.map((r) => [Date.parse(r.startedAt), Date.parse(r.finishedAt)]);
      for (let i = 1; i < spans.length; i++)
        expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
    });

    it('reports a refused parcel by its store id and imports the rest of its order', async () => {
      // Nine orders: a page's share of several orders imports in one transaction, the refused
      // parcel's share falls back to one transaction per order.
      const store = await start(9);
      const tenant = await createTenant(app);
      const [first] = store.orders();
      const taken = first.parcels[0];
      // The workspace tracks that number already (entered by hand): the parcel is refused.
      await http(tenant)
        .post('/shipments', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          trackingNumber: taken.trackingNumber,
        })
        .expect(201);
      const { id } = await connect(tenant, store);
      const [run] = await finishedRuns(tenant, id, 1);
      const parcels = store.orders().flatMap((o) => o.parcels);
      expect(run).toMatchObject({
        status: 'success',
        counts: expect.objectContaining({
          ordersCreated: 9,
          ordersFailed: 0,
          shipmentsCreated: parcels.length - 1,
        }),
      });
      expect(run.errors).toContain(`[${taken.id}] trackingNumber:`);
      expect(run.errors.match(/\[[^\]]+\]/g)).toEqual([`[${taken.id}]`]);
      const orders = await imported(tenant, 'orders', id);
      expect(orders.map((o) => o.externalSourceSyncId).sort()).toEqual(
        store
          .orders()
          .map((o) => o.id)
          .sort(),
      );
      expect(
        (await imported(tenant, 'shipments', id)).map((s) => s.externalSourceSyncId),
      ).not.toContain(taken.id);
    });

    spec.extra?.({
      app: () => app,
      start,
      connect: (tenant, store) => connect(tenant, store),
      finishedRuns,
      imported,
      receiverUrl,
    });

    it('deletes what the workflow imported with deleteData=1', async () => {
      const store = await start(2);
      const tenant = await createTenant(app);
      const { id } = await connect(tenant, store);
      await finishedRuns(tenant, id, 1);
      expect(await imported(tenant, 'orders', id)).toHaveLength(2);
      await http(tenant).delete(`/workflows/${id}?deleteData=1`).expect(204);
      const [{ n }] = await db.query(
        `SELECT (SELECT count(*) FROM shipment WHERE workspace_id = $1)
              + (SELECT count(*) FROM "order" WHERE workspace_id = $1)
              + (SELECT count(*) FROM order_item WHERE workspace_id = $1) AS n`,
        [tenant.workspaceId],
      );
      expect(Number(n)).toBe(0);
    });
  });
}
