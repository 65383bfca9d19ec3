import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { WorkflowRunStore } from '../../workflows/workflow-run-store';
import { WorkflowStore } from '../../workflows/workflow-store';
import { StoreOrderImporter, type ImportScope } from '../import/store-order-importer';
import { advanceCursor, importWindowStart, type ImportCursor } from '../rules/import-cursor';
import {
  addOutcome,
  emptyCounts,
  errorLines,
  runSummary,
  type RunCounts,
} from '../rules/run-report';
import type { ImportProblem } from '../rules/order-mapping';
import { StoreSyncError } from '../store-errors';
import type { StoreClient, StoreConnection, StoreOrder } from '../store-platform';
import { mapLimited } from '../transport/map-limited';
import { OrderedPipeline } from '../transport/ordered-pipeline';
import { StorePrivacy } from '../webhooks/store-privacy';
import { StoreSyncInboxStore } from './store-sync-inbox-store';
import { StoreSyncQueue, type RunTrigger } from './store-sync-queue';
import { StoreSyncStateStore, type StoreSyncStateRow } from './store-sync-state-store';
import { StoreWorkflows, type StoreWorkflow } from './store-workflows';

/**
 * Shares imported at once (each its own transaction). Three: a share starts as soon as the
 * oldest one ends (OrderedPipeline), and a third keeps both cores busy while one share waits on
 * a round trip (600 orders in 14.6-16.3 s against 16.3-19.2 s with two, 15.2-15.7 with four;
 * bench/README.md, "A share starts when the oldest ends"). Larger shares spend fewer
 * statements per order on what a share reads and writes once.
 */
const IMPORT_CONCURRENCY = 3;
/**
 * Orders imported in one transaction (StoreOrderImporter.importMany): a share starts once this
 * many are read (about one Shopify page, its single-query cost limit) or the last page is.
 */
const ORDERS_PER_TRANSACTION = 10;
/** Inbox entries handled per round. */
const INBOX_BATCH = 50;

/** How a run ended, for its caller (the job, a test). */
export interface RunResult {
  /** `busy`: another run holds the workflow; `idle`: nothing to do; else the run's id. */
  readonly outcome: 'busy' | 'idle' | 'ran';
  readonly runId: string | null;
  readonly status?: 'success' | 'failed';
}

/** Why a run cannot start (its settings), said as is in its errors. */
class RunRefused extends Error {}

/** The run lost its lease (ran longer than the lease without progress): it stops. */
class LeaseLost extends Error {
  constructor() {
    super('The run lost its hold on the workflow (another run took over).');
  }
}

/**
 * One store sync run of a workflow, on whichever node takes its job: the workflow's lease
 * first (one run at a time on every node; a run whose node died is closed as failed), then,
 * as a workflow run (`running`, counts, errors per store record): webhooks subscribed where
 * the receiver's address changed, a pull when one was asked for (the first run backfills
 * `backfillDays`; later runs read from the cursor, which moves page by page), then what the
 * inbox holds (webhook deliveries, orders to import again, privacy requests). A store that
 * fails (down, refusing, throttling past the wait) fails the run with the reason; the cursor
 * stays where the last page ended, so the next run resumes there and nothing is lost.
 */
@Injectable()
export class StoreSyncRunner {
  private readonly logger = new Logger(StoreSyncRunner.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly state: StoreSyncStateStore,
    private readonly inbox: StoreSyncInboxStore,
    private readonly importer: StoreOrderImporter,
    private readonly stores: StoreWorkflows,
    private readonly runs: WorkflowRunStore,
    private readonly workflows: WorkflowStore,
    private readonly queue: StoreSyncQueue,
    private readonly privacy: StorePrivacy,
  ) {}

  async run(workflowId: string, trigger: RunTrigger): Promise<RunResult> {
    const owner = randomUUID();
    const taken = await this.state.takeLease(
      this.dataSource,
      workflowId,
      owner,
      this.leaseUntil(),
      new Date(),
    );
    if (!taken) return { outcome: 'busy', runId: null };
    if (taken.abandonedRunId)
      await this.runs.abandon(
        this.dataSource,
        taken.abandonedRunId,
        'The node running this run stopped before it ended; the next run resumed from the cursor.',
        new Date(),
      );
    let result: RunResult = { outcome: 'idle', runId: null };
    try {
      result = await this.holding(workflowId, owner, taken.state, trigger);
    } finally {
      const pending = await this.state.release(this.dataSource, workflowId, owner);
      if (pending) await this.queue.request(workflowId, 'continue');
    }
    return result;
  }

  /** The run proper, while this node holds the workflow. */
  private async holding(
    workflowId: string,
    owner: string,
    state: StoreSyncStateRow,
    trigger: RunTrigger,
  ): Promise<RunResult> {
    let workflow = await this.stores.load(workflowId);
    if (!workflow || !workflow.live) return { outcome: 'idle', runId: null };
    // Rejected credentials are not tried again until they are written again (no retry storm);
    // a run asked for by a person says why nothing happens.
    if (workflow.credentials?.rejectedAt && trigger !== 'execute')
      return { outcome: 'idle', runId: null };
    const pulled = await this.state.takePullRequest(this.dataSource, workflowId, owner);
    const pull = pulled !== null || state.backfilled_at === null;
    const pending = await this.inbox.pending(this.dataSource, workflowId, 1);
    if (!pull && pending.length === 0 && trigger !== 'execute')
      return { outcome: 'idle', runId: null };

    const startedAt = new Date();
    const counts = emptyCounts();
    counts.eventsSent = await this.state.takeEventsSent(this.dataSource, workflowId);
    const runId = await this.runs.startCounted(this.dataSource, {
      workspaceId: workflow.workspaceId,
      workflowId,
      startedAt,
      counts,
    });
    await this.state.holdRun(this.dataSource, workflowId, owner, runId);
    const problems: ImportProblem[] = [];
    let failure: string | null = null;
    let since: Date | null = null;
    let client: StoreClient | null = null;
    try {
      if (workflow.credentials?.rejectedAt)
        throw new RunRefused(
          'The store refused these credentials before; update them (PUT /credentials/{id}) to sync again.',
        );
      workflow = await this.stores.withGeneratedSecret(workflow);
      if (!workflow.connection) throw new RunRefused(workflow.problem ?? 'No store connection.');
      if (!workflow.principal)
        throw new RunRefused('The team has no owner or admin to act for it.');
      client = this.stores.connect(workflow);
      const scope: ImportScope = {
        workflowId,
        workspaceId: workflow.workspaceId,
        platform: workflow.platform,
        principal: workflow.principal,
        announceInitial: state.backfilled_at !== null,
      };
      await this.subscribe(workflow, state, client);
      if (pull) {
        since = importWindowStart(cursorOf(state), startedAt, workflow.options.backfillDays);
        await this.pull(client, scope, owner, since, state, counts, problems, runId);
      }
      await this.drainInbox(client, workflow, scope, owner, counts, problems, runId);
    } catch (error) {
      failure = await this.failed(workflow, error);
    } finally {
      client?.close();
    }
    const status = failure === null ? 'success' : 'failed';
    const finishedAt = new Date();
    await this.runs.finishCounted(this.dataSource, runId, {
      status,
      counts,
      errors: errorLines(problems, failure),
      log: runSummary(counts, { pulled: pull, since }),
      finishedAt,
    });
    await this.workflows.ranAt(this.dataSource, workflowId, finishedAt);
    return { outcome: 'ran', runId, status };
  }

  /**
   * Subscribes the store's webhooks once, and again when the receiver's address, the store or
   * the secret changed (credentials pointed at another store get theirs).
   */
  private async subscribe(workflow: StoreWorkflow, state: StoreSyncStateRow, client: StoreClient) {
    const url = this.stores.receiverUrl(workflow);
    const key = subscriptionKey(url, workflow.connection);
    if (state.webhook_key === key) return;
    const subscriptions = await client.subscribeWebhooks(url);
    await this.state.saveSubscriptions(this.dataSource, workflow.id, { url, key, subscriptions });
  }

  /**
   * The orders changed since `since`, page by page, oldest change first, imported in shares of
   * ORDERS_PER_TRANSACTION as soon as they are read, IMPORT_CONCURRENCY at once; the cursor
   * moves after each share (only past orders imported or reported, every share before it
   * included), and the lease with it.
   */
  private async pull(
    client: StoreClient,
    scope: ImportScope,
    owner: string,
    since: Date,
    state: StoreSyncStateRow,
    counts: RunCounts,
    problems: ImportProblem[],
    runId: string,
  ): Promise<void> {
    let cursor = cursorOf(state);
    const shares = new OrderedPipeline(IMPORT_CONCURRENCY);
    const saved = async (orders: readonly StoreOrder[], backfilled: boolean) => {
      cursor = advanceCursor(cursor, orders);
      await this.state.saveCursor(
        this.dataSource,
        scope.workflowId,
        owner,
        cursor ? new Date(cursor.changedUpTo) : null,
        backfilled,
      );
      await this.progress(scope.workflowId, owner, runId, counts);
    };
    const read: StoreOrder[] = [];
    let backfillSaved = false;
    /**
     * Starts shares of what was read: the full ones, and with `rest` the rest too; `backfill`:
     * the last share ends the window (the pull read its last page).
     */
    const startShares = async (rest: boolean, backfill: boolean) => {
      while (read.length >= ORDERS_PER_TRANSACTION || (rest && read.length > 0)) {
        const share = read.splice(0, ORDERS_PER_TRANSACTION);
        const last = backfill && read.length === 0;
        await shares.start(
          () => this.importShare(scope, share, counts, problems),
          () => saved(share, last),
        );
        backfillSaved ||= last;
      }
    };
    let fetching = client.listChangedOrders({ since, page: null });
    for (;;) {
      let answer: Awaited<typeof fetching>;
      try {
        answer = await fetching;
      } catch (error) {
        // The store failed mid-pull: what was read is imported, the cursor past it.
        await startShares(true, false);
        await shares.drain();
        throw error;
      }
      // The next page is read while these are imported: a store's rate limit (Shopify's
      // bucket refilling) and our writes overlap instead of adding up.
      if (answer.next !== null) {
        fetching = client.listChangedOrders({ since, page: answer.next });
        fetching.catch(() => undefined); // awaited next turn; a failure surfaces there
      }
      read.push(...answer.orders);
      const last = answer.next === null;
      await startShares(last, last);
      if (!last) continue;
      await shares.drain();
      // Nothing was left to import: the window was read all the same (a backfill is done).
      if (!backfillSaved) await saved([], true);
      return;
    }
  }

  /** Webhook deliveries, orders to import again and privacy requests, oldest first. */
  private async drainInbox(
    client: StoreClient,
    workflow: StoreWorkflow,
    scope: ImportScope,
    owner: string,
    counts: RunCounts,
    problems: ImportProblem[],
    runId: string,
  ): Promise<void> {
    for (;;) {
      const entries = await this.inbox.pending(this.dataSource, workflow.id, INBOX_BATCH);
      if (entries.length === 0) return;
      const orders = new Map<string, string[]>();
      for (const entry of entries) {
        if (entry.kind === 'privacy') {
          await this.privacy.handle(workflow, scope.principal, entry);
          await this.inbox.done(this.dataSource, [entry.id]);
          continue;
        }
        if (entry.kind === 'order') counts.webhooksReceived++;
        const id = entry.store_order_id ?? '';
        orders.set(id, [...(orders.get(id) ?? []), entry.id]);
      }
      // Several deliveries about one order: read it once, as it is now.
      await mapLimited([...orders.keys()], IMPORT_CONCURRENCY, async (orderId) => {
        const store = await client.readOrder(orderId);
        if (store) await this.importShare(scope, [store], counts, problems);
        await this.inbox.done(this.dataSource, orders.get(orderId)!);
      });
      await this.progress(workflow.id, owner, runId, counts);
    }
  }

  /** One share of orders in one transaction; the failed ones are tried again later (inbox). */
  private async importShare(
    scope: ImportScope,
    share: readonly StoreOrder[],
    counts: RunCounts,
    problems: ImportProblem[],
  ): Promise<void> {
    const imported: string[] = [];
    const outcomes = await this.importer.importMany(scope, share);
    for (const [i, outcome] of outcomes.entries()) {
      const order = share[i];
      addOutcome(counts, outcome);
      problems.push(...outcome.problems);
      if (outcome.order === 'failed')
        await this.inbox.retryLater(
          this.dataSource,
          scope.workflowId,
          order.id,
          outcome.problems[0]?.message ?? 'import failed',
        );
      else imported.push(order.id);
    }
    await this.inbox.imported(this.dataSource, scope.workflowId, imported);
  }

  /** The counts so far on the run, and the lease renewed (or the run stops: LeaseLost). */
  private async progress(workflowId: string, owner: string, runId: string, counts: RunCounts) {
    if (!(await this.state.renew(this.dataSource, workflowId, owner, this.leaseUntil())))
      throw new LeaseLost();
    await this.runs.progress(this.dataSource, runId, counts);
  }

  /**
   * The reason a run failed, said in its errors. Refused credentials are marked and the team
   * told; a store asking to slow down gets a pull again once it allows.
   */
  private async failed(workflow: StoreWorkflow, error: unknown): Promise<string> {
    if (error instanceof StoreSyncError) {
      if (error.kind === 'credentials_rejected')
        await this.stores.credentialsRejected(workflow, error.message);
      if (error.kind === 'rate_limited') {
        await this.state.requestPull(this.dataSource, [workflow.id], new Date());
        await this.queue.request(workflow.id, 'continue', {
          delayMs: error.details.retryAfterMs ?? 60_000,
        });
      }
      return error.message;
    }
    if (error instanceof LeaseLost || error instanceof RunRefused) return error.message;
    this.logger.error({ err: error }, `store sync of workflow ${workflow.id} failed`);
    return 'The run stopped on an internal error; the next run resumes from the cursor.';
  }

  private leaseUntil(): Date {
    return new Date(Date.now() + this.config.storeSyncLeaseSeconds * 1000);
  }
}

/** A digest of what webhook subscriptions depend on: receiver, store, and the proof's secret. */
function subscriptionKey(url: string, connection: StoreConnection | null): string {
  const secret =
    connection?.platform === 'bigcommerce'
      ? connection.hookSecret
      : connection?.platform === 'woocommerce'
        ? connection.webhookSecret
        : null;
  return createHash('sha256')
    .update(JSON.stringify([url, connection?.baseUrl ?? null, secret ?? null]))
    .digest('base64url')
    .slice(0, 32);
}

function cursorOf(state: StoreSyncStateRow): ImportCursor | null {
  return state.changed_up_to ? { changedUpTo: new Date(state.changed_up_to).toISOString() } : null;
}
