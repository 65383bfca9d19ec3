import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import type { WorkflowRunStore } from '../../workflows/workflow-run-store';
import type { WorkflowStore } from '../../workflows/workflow-store';
import type { ImportScope, StoreOrderImporter } from '../import/store-order-importer';
import type { OrderImportOutcome } from '../rules/run-report';
import { StoreCredentialsRejected, StoreRateLimited, StoreUnavailable } from '../store-errors';
import type { StoreClient, StoreOrder, StoreOrderPage } from '../store-platform';
import type { StorePrivacy } from '../webhooks/store-privacy';
import type { InboxEntry, StoreSyncInboxStore } from './store-sync-inbox-store';
import type { RunTrigger, StoreSyncQueue } from './store-sync-queue';
import { StoreSyncRunner } from './store-sync-runner';
import type { StoreSyncStateRow, StoreSyncStateStore } from './store-sync-state-store';
import type { StoreWorkflow, StoreWorkflows } from './store-workflows';

const WF = 'wf-1';
const t = (s: number) => new Date(Date.UTC(2024, 4, 1) + s * 1000);
const order = (id: string, s: number) => ({ id, updatedAt: t(s) }) as StoreOrder;

/** store_sync_state in memory, with the lease rules of the SQL. */
class FakeState {
  row: StoreSyncStateRow = {
    workflow_id: WF,
    platform: 'shopify',
    active: true,
    interval_seconds: null,
    next_run_at: null,
    pull_requested_at: null,
    changed_up_to: null,
    backfilled_at: null,
    webhook_url: null,
    webhook_key: null,
    webhook_subscriptions: [],
    lease_owner: null,
    lease_until: null,
    run_id: null,
  };
  inboxPending = false;
  cursors: Array<Date | null> = [];

  async takeLease(_r: unknown, _id: string, owner: string, until: Date, now: Date) {
    if (this.row.lease_until && this.row.lease_until >= now) return null;
    const abandonedRunId = this.row.run_id;
    this.row = { ...this.row, lease_owner: owner, lease_until: until, run_id: null };
    return { state: { ...this.row }, abandonedRunId };
  }
  async holdRun(_r: unknown, _id: string, _owner: string, runId: string) {
    this.row.run_id = runId;
  }
  async renew(_r: unknown, _id: string, owner: string) {
    return this.row.lease_owner === owner;
  }
  async takePullRequest() {
    const requested = this.row.pull_requested_at;
    this.row.pull_requested_at = null;
    return requested;
  }
  async requestPull(_r: unknown, ids: string[], at: Date) {
    this.row.pull_requested_at ??= at;
    return ids;
  }
  async saveCursor(_r: unknown, _id: string, _o: string, cursor: Date | null, backfilled: boolean) {
    this.cursors.push(cursor);
    this.row.changed_up_to = cursor;
    if (backfilled) this.row.backfilled_at ??= new Date();
  }
  async saveSubscriptions(_r: unknown, _id: string, saved: { url: string; key: string }) {
    this.row.webhook_url = saved.url;
    this.row.webhook_key = saved.key;
  }
  async takeEventsSent() {
    return 3;
  }
  async release(_r: unknown, _id: string, owner: string) {
    if (this.row.lease_owner !== owner) return false;
    this.row = { ...this.row, lease_owner: null, lease_until: null, run_id: null };
    return this.row.pull_requested_at !== null || this.inboxPending;
  }
}

/** A store answering pages of orders, or failing from a page on. */
function fakeClient(pages: StoreOrder[][], failAt?: { page: number; error: Error }): StoreClient {
  return {
    platform: 'shopify',
    listChangedOrders: async ({ page }) => {
      const index = page ? Number(page.index) : 0;
      if (failAt && index === failAt.page) throw failAt.error;
      return {
        orders: pages[index],
        next: index + 1 < pages.length ? { index: index + 1 } : null,
      } satisfies StoreOrderPage;
    },
    readOrder: async (id) => order(id, 100),
    subscribeWebhooks: async () => [{ id: 's1', topic: 'ORDERS_UPDATED' }],
    push: async () => ({ sent: true }),
    close: () => undefined,
  };
}

function setup(client: StoreClient, workflow: Partial<StoreWorkflow> = {}) {
  const state = new FakeState();
  const runs: Array<{ id: string; status: string; counts?: unknown; errors?: string | null }> = [];
  const imported: string[] = [];
  const queued: Array<{ trigger: RunTrigger; delayMs?: number }> = [];
  const rejected: string[] = [];
  const inbox: InboxEntry[] = [];
  const stores = {
    load: async () =>
      ({
        id: WF,
        platform: 'shopify',
        workspaceId: 'ws',
        teamId: 'team',
        title: 'Shop',
        live: true,
        credentials: { id: 'cred', teamId: 'team', type: 'shopify', parameters: {}, secrets: {} },
        connection: { platform: 'shopify' },
        problem: null,
        options: {
          backfillDays: 30,
          customerNotes: false,
          completeOnDelivery: false,
          statusIdOnDelivery: null,
        },
        principal: { userId: 'u' },
        ...workflow,
      }) as StoreWorkflow,
    withGeneratedSecret: async (w: StoreWorkflow) => w,
    connect: () => client,
    receiverUrl: () => 'https://svc.example/public/store_webhooks/shopify/wf-1',
    credentialsRejected: async (_w: StoreWorkflow, reason: string) => void rejected.push(reason),
  };
  const importer = {
    import: async (_scope: ImportScope, o: StoreOrder): Promise<OrderImportOutcome> => {
      imported.push(o.id);
      return {
        order: 'created',
        shipmentsCreated: 1,
        shipmentsUpdated: 0,
        shipmentsMoved: 0,
        shipmentsRemoved: 0,
        problems: [],
      };
    },
    async importMany(scope: ImportScope, orders: StoreOrder[]): Promise<OrderImportOutcome[]> {
      const outcomes: OrderImportOutcome[] = [];
      for (const o of orders) outcomes.push(await this.import(scope, o));
      return outcomes;
    },
  };
  const runStore = {
    startCounted: async () => {
      runs.push({ id: `run-${runs.length + 1}`, status: 'running' });
      return runs[runs.length - 1].id;
    },
    progress: async () => undefined,
    finishCounted: async (
      _r: unknown,
      id: string,
      run: { status: string; counts: unknown; errors: string | null },
    ) =>
      Object.assign(
        runs.find((r) => r.id === id)!,
        run,
      ),
    abandon: async (_r: unknown, id: string) => void runs.push({ id, status: 'abandoned' }),
  };
  const inboxStore = {
    pending: async (_r: unknown, _id: string, limit: number) =>
      inbox.filter((e) => e.attempts === 0).slice(0, limit),
    done: async (_r: unknown, ids: string[]) => {
      for (const e of inbox) if (ids.includes(e.id)) e.attempts++;
    },
    retryLater: async () => undefined,
    imported: async () => undefined,
  };
  const runner = new StoreSyncRunner(
    {} as DataSource,
    { storeSyncLeaseSeconds: 300 } as AppConfig,
    state as unknown as StoreSyncStateStore,
    inboxStore as unknown as StoreSyncInboxStore,
    importer as unknown as StoreOrderImporter,
    stores as unknown as StoreWorkflows,
    runStore as unknown as WorkflowRunStore,
    { ranAt: async () => undefined } as unknown as WorkflowStore,
    {
      request: async (_id: string, trigger: RunTrigger, o: { delayMs?: number } = {}) =>
        void queued.push({ trigger, delayMs: o.delayMs }),
    } as unknown as StoreSyncQueue,
    { handle: async () => undefined } as unknown as StorePrivacy,
  );
  return { runner, state, runs, imported, queued, rejected, inbox };
}

/** `n` orders with ids and change times `from`, `from + 1`, ... */
const page = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => order(String(from + i), from + i));

describe('StoreSyncRunner', () => {
  it('backfills page by page, moving the cursor after each, and records the run', async () => {
    const { runner, state, runs, imported } = setup(
      fakeClient([[order('1', 10), order('2', 20)], [order('3', 30)]]),
    );
    const result = await runner.run(WF, 'period');
    expect(result).toEqual({ outcome: 'ran', runId: 'run-1', status: 'success' });
    expect(imported.sort()).toEqual(['1', '2', '3']);
    // Pages are gathered into shares of up to ten orders.
    expect(state.cursors).toEqual([t(30)]);
    expect(state.row).toMatchObject({ lease_owner: null, backfilled_at: expect.any(Date) });
    expect(state.row.webhook_url).toContain('/public/store_webhooks/shopify/');
    expect(runs[0]).toMatchObject({
      status: 'success',
      errors: null,
      counts: expect.objectContaining({
        ordersRead: 3,
        ordersCreated: 3,
        shipmentsCreated: 3,
        eventsSent: 3,
      }),
    });
  });

  it('imports every ten orders read, across pages, moving the cursor after each share', async () => {
    const { runner, state, imported } = setup(
      fakeClient([page(1, 7), page(8, 10), page(18, 13), page(31, 5)]),
    );
    await runner.run(WF, 'period');
    expect(imported).toHaveLength(35);
    expect(state.cursors).toEqual([t(10), t(20), t(30), t(35)]);
    expect(state.row.backfilled_at).toEqual(expect.any(Date));
  });

  it('keeps the cursor before a share that failed, the share beside it finished first', async () => {
    const { runner, state, runs, imported } = setup(
      fakeClient([page(1, 10), page(11, 10), page(21, 10), page(31, 10)]),
    );
    const importer = (runner as unknown as { importer: StoreOrderImporter }).importer;
    const importMany = importer.importMany.bind(importer);
    let running = 0;
    let most = 0;
    importer.importMany = async (scope, orders) => {
      most = Math.max(most, ++running);
      try {
        // The second share (orders 11-20) loses its database; the third is imported meanwhile.
        if (orders[0].id === '11') {
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error('connection terminated');
        }
        return await importMany(scope, orders);
      } finally {
        running--;
      }
    };
    expect(await runner.run(WF, 'period')).toMatchObject({ status: 'failed' });
    expect(most).toBeGreaterThan(1);
    // The shares beside the failed one ran to their end; the failed one left nothing.
    expect(imported).toEqual(
      expect.arrayContaining([...page(1, 10), ...page(21, 10)].map((o) => o.id)),
    );
    expect(imported.filter((id) => Number(id) > 10 && Number(id) <= 20)).toEqual([]);
    // Past the first share only: the next run imports 11-30 again (nothing twice: upserts).
    expect(state.cursors).toEqual([t(10)]);
    expect(state.row.backfilled_at).toBeNull();
    expect(runs[0].errors).toContain('the next run resumes from the cursor');
  });

  it('is busy while another run holds the workflow, and records nothing', async () => {
    const { runner, state, runs } = setup(fakeClient([[]]));
    state.row.lease_owner = 'other';
    state.row.lease_until = new Date(Date.now() + 60_000);
    expect(await runner.run(WF, 'execute')).toEqual({ outcome: 'busy', runId: null });
    expect(runs).toEqual([]);
  });

  it('closes the run of a node that died when its lease ran out', async () => {
    const { runner, state, runs } = setup(fakeClient([[]]));
    Object.assign(state.row, {
      lease_owner: 'dead',
      lease_until: new Date(Date.now() - 1000),
      run_id: 'old-run',
    });
    await runner.run(WF, 'period');
    expect(runs[0]).toEqual({ id: 'old-run', status: 'abandoned' });
  });

  it('fails the run while the store is down, importing what it read first', async () => {
    const down = new StoreUnavailable('shopify', 'HTTP 503', 503);
    const { runner, state, runs } = setup(
      fakeClient([[order('1', 10)], [order('2', 20)]], { page: 1, error: down }),
    );
    expect(await runner.run(WF, 'period')).toMatchObject({ status: 'failed' });
    expect(runs[0]).toMatchObject({
      status: 'failed',
      errors: 'Shopify store unavailable: HTTP 503',
    });
    expect(state.row).toMatchObject({
      changed_up_to: t(10),
      backfilled_at: null,
      lease_owner: null,
    });
  });

  it('marks refused credentials, and later runs of the period do not call the store', async () => {
    const { runner, runs, rejected } = setup(
      fakeClient([[]], { page: 0, error: new StoreCredentialsRejected('shopify', 401) }),
    );
    await runner.run(WF, 'period');
    expect(rejected).toEqual(['Shopify refused the credentials (HTTP 401)']);
    expect(runs[0].status).toBe('failed');
    const later = setup(fakeClient([[]]), {
      credentials: {
        id: 'c',
        teamId: 't',
        type: 'shopify',
        parameters: {},
        secrets: {},
        rejectedAt: new Date(),
      },
    });
    expect(await later.runner.run(WF, 'period')).toEqual({ outcome: 'idle', runId: null });
    expect(later.runs).toEqual([]);
    expect(await later.runner.run(WF, 'execute')).toMatchObject({
      outcome: 'ran',
      status: 'failed',
    });
    expect(later.runs[0].errors).toMatch(/refused these credentials before/);
  });

  it('asks for a pull again once a throttling store allows it', async () => {
    const { runner, queued } = setup(
      fakeClient([[]], { page: 0, error: new StoreRateLimited('shopify', 180_000) }),
    );
    await runner.run(WF, 'period');
    // Once asked for later (the delay), once by the release (a pull is pending).
    expect(queued).toEqual([
      { trigger: 'continue', delayMs: 180_000 },
      { trigger: 'continue', delayMs: undefined },
    ]);
  });

  it('imports webhook deliveries once per order, and does nothing when nothing waits', async () => {
    const { runner, state, runs, imported, inbox } = setup(fakeClient([[]]));
    state.row.backfilled_at = new Date();
    expect(await runner.run(WF, 'webhook')).toEqual({ outcome: 'idle', runId: null });
    const entry = (id: string, orderId: string): InboxEntry => ({
      id,
      kind: 'order',
      store_order_id: orderId,
      topic: 'orders/updated',
      payload: null,
      attempts: 0,
    });
    inbox.push(entry('a', '7'), entry('b', '7'), entry('c', '8'));
    await runner.run(WF, 'webhook');
    expect(imported.sort()).toEqual(['7', '8']);
    expect(runs[0].counts).toMatchObject({ webhooksReceived: 3, ordersRead: 2 });
    expect(inbox.every((e) => e.attempts === 1)).toBe(true);
  });
});
