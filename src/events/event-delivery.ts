import { pausePoint } from '../common/pause-point';
import { PeriodicTask } from '../common/periodic-task';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EmailNotificationDelivery } from '../email-notifications/email-notification-delivery';
import { Clock } from '../tracking/clock';
import { WebhookDelivery, type WebhookOutcome } from '../webhooks/webhook-delivery';
import { WorkflowStore } from '../workflows/workflow-store';
import { DeliveryFailureNotice } from './delivery-failure-notice';
import { PermanentDeliveryError } from './delivery-error';
import { EventDeliveryTargets } from './delivery-targets';
import { attemptTargetGroup, groupByTarget } from './targeted-attempts';
import { EventDeliveryStore, type ClaimedDelivery } from './event-delivery-store';
import { EventDispatch } from './event-dispatch';
import { OutboxStore } from './outbox-store';
import { retryDelayMs } from './retry-backoff';

const INTERVAL_NAME = 'event-delivery';
/** Deliveries attempted at once by one node. */
const CONCURRENCY = 8;
/** Events in one request of a reference-form webhook (the reference's batch size). */
export const REFERENCE_BATCH_SIZE = 500;

export interface DeliveryRound {
  dispatched: number;
  attempted: number;
  delivered: number;
  failed: number;
}

interface AttemptResult {
  ok: boolean;
  permanent: boolean;
  error: string | null;
  /** Delivered without sending (email: condition unmet, no recipient). */
  skipped?: boolean;
}

/**
 * Delivers the outbox ("events never get lost"). Two steps, each safe on any number of nodes:
 *
 * 1. Dispatch (event-dispatch.ts): undispatched events are claimed with FOR UPDATE SKIP LOCKED
 *    and, in the same transaction, get one `event_delivery` row per target (enabled webhook
 *    workflows of the workspace; enabled e-mail notifications whose event matches, never for
 *    an indirect change) with the time it is due: the workflow's period (immediately, next
 *    hour, next day; `manual` ones are held until POST /workflows/execute) or the
 *    notification's scheduleDelay. An event without targets is delivered at once.
 * 2. Deliver: due deliveries are claimed with SKIP LOCKED and leased (next_attempt_at moves
 *    past the lease, attempts counts up) before anything is sent, then attempted: a webhook
 *    POST (recorded as a workflow run) or an e-mail through the Mailer. While leased a delivery
 *    is `sending`; a lease that runs out makes it due again. Success marks the
 *    delivery delivered; a failure is retried with exponential backoff up to
 *    EVENT_DELIVERY_MAX_ATTEMPTS, then given up, and the workflow's notificationEmails and the
 *    team's owners and admins (in-app) are told (delivery-failure-notice.ts). A node that dies
 *    mid-attempt leaves the lease to run out, and the delivery is attempted again (at least
 *    once: receivers dedupe on the event id).
 *
 * The outbox row records the totals: `attempts`, `last_error`, and `delivered_at` once no
 * delivery of the event is pending or held (failed-for-good ones included; see last_error).
 */
@Injectable()
export class EventDelivery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventDelivery.name);
  private periodicTask?: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly scheduler: SchedulerRegistry,
    private readonly webhooks: WebhookDelivery,
    private readonly emails: EmailNotificationDelivery,
    private readonly dispatcher: EventDispatch,
    private readonly outbox: OutboxStore,
    private readonly deliveries: EventDeliveryStore,
    private readonly workflows: WorkflowStore,
    private readonly failures: DeliveryFailureNotice,
    private readonly targets: EventDeliveryTargets,
  ) {}

  get enabled(): boolean {
    return this.config.eventDeliveryEnabled ?? this.config.nodeEnv !== 'test';
  }

  /** How long a claimed delivery is reserved for the node attempting it. */
  get leaseMs(): number {
    const configured = this.config.eventDeliveryLeaseSeconds;
    return configured !== undefined
      ? configured * 1000
      : Math.max(5 * 60_000, 3 * this.config.webhookTimeoutMs);
  }

  private get periodic(): PeriodicTask {
    return (this.periodicTask ??= new PeriodicTask(INTERVAL_NAME, this.scheduler, this.logger));
  }

  onApplicationBootstrap(): void {
    if (this.enabled)
      this.periodic.start(this.config.eventDeliveryIntervalMs, () => this.runOnce());
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** One round: dispatch new events, attempt due deliveries, close finished events. */
  async runOnce(limit = this.config.eventDeliveryBatchSize): Promise<DeliveryRound> {
    const dispatched = await this.dispatch(limit);
    const round = await this.deliverDue(limit);
    await this.closeFinished();
    return { dispatched, ...round };
  }

  /** Rounds until nothing is left to dispatch or due; returns the totals. */
  async runUntilIdle(limit = this.config.eventDeliveryBatchSize): Promise<DeliveryRound> {
    const total: DeliveryRound = { dispatched: 0, attempted: 0, delivered: 0, failed: 0 };
    for (let i = 0; i < 1000; i++) {
      const round = await this.runOnce(limit);
      total.dispatched += round.dispatched;
      total.attempted += round.attempted;
      total.delivered += round.delivered;
      total.failed += round.failed;
      if (round.dispatched === 0 && round.attempted === 0) break;
    }
    return total;
  }

  /** Step 1: fan undispatched events out into deliveries; returns how many were dispatched. */
  dispatch(limit = this.config.eventDeliveryBatchSize): Promise<number> {
    return this.dispatcher.dispatch(limit, this.clock.now());
  }

  /** Step 2: claim and attempt due deliveries. */
  async deliverDue(
    limit = this.config.eventDeliveryBatchSize,
  ): Promise<Omit<DeliveryRound, 'dispatched'>> {
    const claimed = await this.claimDue(limit);
    const round = { attempted: claimed.length, delivered: 0, failed: 0 };
    for (const { ok } of await this.attemptAll(claimed)) {
      if (ok) round.delivered++;
      else round.failed++;
    }
    return round;
  }

  /**
   * Attempts claimed deliveries: those of reference-form webhooks (`url` set) together, up to
   * REFERENCE_BATCH_SIZE events per request and `concurrency` requests at once per workflow;
   * every other one alone, CONCURRENCY at a time.
   */
  private async attemptAll(
    all: ClaimedDelivery[],
  ): Promise<Array<{ ok: boolean; runId: string | null }>> {
    const claimed = all.filter((d) => d.target === null);
    const results: Array<{ ok: boolean; runId: string | null }> = [];
    const targeted = this.attemptTargeted(all.filter((d) => d.target !== null));
    const workflowIds = [...new Set(claimed.map((d) => d.workflow_id).filter((id) => id !== null))];
    const concurrencyOf = await this.workflows.referenceConcurrency(this.dataSource, workflowIds);
    const single = claimed.filter((d) => !d.workflow_id || !concurrencyOf.has(d.workflow_id));
    for (let i = 0; i < single.length; i += CONCURRENCY) {
      const batch = await Promise.all(single.slice(i, i + CONCURRENCY).map((d) => this.attempt(d)));
      results.push(...batch);
    }
    await Promise.all(
      [...concurrencyOf].map(async ([workflowId, concurrency]) => {
        const mine = claimed.filter((d) => d.workflow_id === workflowId);
        const chunks: ClaimedDelivery[][] = [];
        for (let i = 0; i < mine.length; i += REFERENCE_BATCH_SIZE)
          chunks.push(mine.slice(i, i + REFERENCE_BATCH_SIZE));
        for (let i = 0; i < chunks.length; i += concurrency) {
          const done = await Promise.all(
            chunks.slice(i, i + concurrency).map((chunk) => this.attemptBatch(workflowId, chunk)),
          );
          for (const [j, outcome] of done.entries()) {
            results.push(...chunks[i + j].map(() => ({ ok: outcome.ok, runId: outcome.runId })));
          }
        }
      }),
    );
    results.push(...(await targeted));
    return results;
  }

  /**
   * Deliveries of the other targets (delivery-targets.ts): each workflow's in event order, one
   * at a time, the workflows side by side; recorded like any delivery (retries, give-up).
   */
  private async attemptTargeted(
    claimed: ClaimedDelivery[],
  ): Promise<Array<{ ok: boolean; runId: string | null }>> {
    const results: Array<{ ok: boolean; runId: string | null }> = [];
    await Promise.all(
      groupByTarget(claimed).map(async (deliveries) => {
        const now = this.clock.now();
        const outcomes = await attemptTargetGroup(
          this.targets,
          deliveries,
          await this.outbox.findAll(
            this.dataSource,
            deliveries.map((d) => d.outbox_event_id),
          ),
          now,
        );
        for (const [i, delivery] of deliveries.entries()) {
          await this.record(delivery, outcomes[i], now);
          results.push({ ok: outcomes[i].ok, runId: null });
        }
      }),
    );
    return results;
  }

  /** One request of a reference-form webhook for several deliveries; a 401 disables it. */
  private async attemptBatch(
    workflowId: string,
    deliveries: ClaimedDelivery[],
  ): Promise<WebhookOutcome> {
    const now = this.clock.now();
    const events = await this.outbox.findAll(
      this.dataSource,
      deliveries.map((d) => d.outbox_event_id),
    );
    const attempt = Math.max(...deliveries.map((d) => d.attempts));
    let outcome: WebhookOutcome;
    try {
      outcome = events.length
        ? await this.webhooks.deliverBatch(
            workflowId,
            events.map((e) => ({
              id: e.id,
              type: e.type,
              workspaceId: e.workspace_id!,
              createdAt: new Date(e.created_at),
              payload: e.payload,
            })),
            attempt,
            now,
          )
        : { ok: false, permanent: true, error: 'the events no longer exist', runId: null };
    } catch (error) {
      outcome = {
        ok: false,
        permanent: false,
        error: error instanceof Error ? error.message : String(error),
        runId: null,
      };
    }
    if (outcome.unauthorized) await this.workflows.disable(this.dataSource, workflowId);
    for (const delivery of deliveries) await this.record(delivery, outcome, now, false);
    const last = deliveries[deliveries.length - 1];
    const givenUp =
      !outcome.ok && (outcome.permanent || attempt >= this.config.eventDeliveryMaxAttempts);
    if (givenUp) {
      const reason = outcome.unauthorized
        ? `${outcome.error ?? 'HTTP 401'} (the workflow was disabled)`
        : (outcome.error ?? 'unknown error');
      await this.failures
        .report({ ...last, attempts: attempt }, reason)
        .catch((e: Error) => this.logger.error(`reporting a failed delivery failed: ${e.message}`));
    }
    return outcome;
  }

  /** Claims due deliveries: locks skip rows other nodes hold; the lease hides them meanwhile. */
  async claimDue(limit: number, workflowIds?: string[]): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    return this.deliveries.claimDue(
      this.dataSource,
      now,
      limit,
      new Date(now.getTime() + this.leaseMs),
      workflowIds ?? null,
    );
  }

  /**
   * POST /workflows/execute: the held and waiting deliveries of these workflows become due now;
   * up to `limit` are attempted at once (the answer waits for them), the rest by the next
   * rounds. Answers the runs made.
   */
  async executeWorkflows(workflowIds: string[], limit = 50): Promise<string[]> {
    if (workflowIds.length === 0) return [];
    const now = this.clock.now();
    // Deliveries being sent (leased) are left alone: they are attempted already.
    await this.deliveries.releaseWorkflows(this.dataSource, workflowIds, now);
    await this.dispatch();
    const claimed = await this.claimDue(limit, workflowIds);
    const runs = new Set<string>();
    for (const { runId } of await this.attemptAll(claimed)) if (runId) runs.add(runId);
    await this.closeFinished();
    return [...runs];
  }

  /** Marks events delivered once none of their deliveries is pending or held. */
  closeFinished(): Promise<number> {
    return this.outbox.closeFinished(this.dataSource, this.clock.now());
  }

  /** One attempt: whether it delivered, and the workflow run it made (webhooks). */
  private async attempt(delivery: ClaimedDelivery): Promise<{ ok: boolean; runId: string | null }> {
    const now = this.clock.now();
    const event = await this.outbox.find(this.dataSource, delivery.outbox_event_id);
    let result: AttemptResult;
    let runId: string | null = null;
    try {
      if (!event) {
        result = { ok: false, permanent: true, error: 'the event no longer exists' };
      } else if (delivery.workflow_id) {
        const outcome = await this.webhooks.deliver(
          delivery.workflow_id,
          {
            id: event.id,
            type: event.type,
            workspaceId: delivery.workspace_id,
            createdAt: new Date(event.created_at),
            payload: event.payload,
          },
          delivery.attempts,
          now,
        );
        runId = outcome.runId;
        result = outcome;
      } else {
        const outcome = await this.emails.deliver(delivery.email_notification_id!, {
          id: event.id,
          type: event.type,
          aggregateType: event.aggregate_type,
          aggregateId: event.aggregate_id,
          payload: event.payload,
        });
        result = { ok: true, permanent: false, error: null, skipped: !outcome.sent };
        if (!outcome.sent) result.error = outcome.detail;
        // Delivered to the others; the ones the server refused are kept in last_error.
        else if (outcome.rejected?.length) {
          result.error = `refused by the mail server: ${outcome.rejected.join(', ')}`;
        }
      }
      await pausePoint('event.delivery.sent');
    } catch (error) {
      result = {
        ok: false,
        permanent: error instanceof PermanentDeliveryError,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    await this.record(delivery, result, now);
    return { ok: result.ok, runId };
  }

  private async record(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    now: Date,
    reportFailure = true,
  ): Promise<void> {
    const error = result.error ? result.error.slice(0, 2000) : null;
    const db = this.dataSource;
    if (result.ok) {
      await this.deliveries.delivered(
        db,
        delivery.id,
        result.skipped ? 'skipped' : 'delivered',
        now,
        error,
      );
      await this.outbox.attemptSucceeded(db, delivery.outbox_event_id);
    } else {
      const givenUp = result.permanent || delivery.attempts >= this.config.eventDeliveryMaxAttempts;
      const next = new Date(
        now.getTime() + retryDelayMs(delivery.attempts, this.config.eventDeliveryRetryBaseSeconds),
      );
      await this.deliveries.failed(db, delivery.id, givenUp, error, givenUp ? now : next);
      await this.outbox.attemptFailed(db, delivery.outbox_event_id, error, givenUp, next);
      if (givenUp && delivery.workflow_id && reportFailure) {
        await this.failures
          .report(delivery, error ?? 'unknown error')
          .catch((e: Error) =>
            this.logger.error(`reporting a failed delivery failed: ${e.message}`),
          );
      }
    }
    await this.outbox.closeIfFinished(db, delivery.outbox_event_id, now);
  }
}
