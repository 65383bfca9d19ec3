import { pausePoint } from '../common/pause-point';
import { PeriodicTask } from '../common/periodic-task';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EmailNotificationDelivery } from '../email-notifications/email-notification-delivery';
import { scheduleDelayMs } from '../email-notifications/email-notification.entity';
import { MAILER, type Mailer } from '../mail/mailer';
import { NotificationsService } from '../notifications/notifications.service';
import { Clock } from '../tracking/clock';
import { WebhookDelivery, type WebhookOutcome } from '../webhooks/webhook-delivery';
import { passesFilter, referenceChangeOf } from '../webhooks/reference-webhook-body';
import { firstDueAt } from '../workflows/workflow-types';
import { PermanentDeliveryError } from './delivery-error';
import { notificationEventsOf } from './event-types';
import { retryDelayMs } from './retry-backoff';
import { query } from '../database/query';

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

interface OutboxRow {
  id: string;
  workspace_id: string | null;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  created_at: Date;
  ignored_workflow_id?: string | null;
}

interface WebhookTarget {
  id: string;
  period: string;
  url: string | null;
  entity: string | null;
  event: string | null;
  field: string | null;
}

interface ClaimedDelivery {
  id: string;
  outbox_event_id: string;
  workspace_id: string;
  workflow_id: string | null;
  email_notification_id: string | null;
  attempts: number;
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
 * 1. Dispatch: undispatched events are claimed with FOR UPDATE SKIP LOCKED and, in the same
 *    transaction, get one `event_delivery` row per target (enabled webhook workflows of the
 *    workspace; enabled e-mail notifications whose event matches, never for an indirect
 *    change, see notificationEventsOf) with the time it is due:
 *    the workflow's period (immediately, next hour, next day; `manual` ones are held until
 *    POST /workflows/execute) or the notification's scheduleDelay. An event without targets is
 *    delivered at once.
 * 2. Deliver: due deliveries are claimed with SKIP LOCKED and leased (next_attempt_at moves
 *    past the lease, attempts counts up) before anything is sent, then attempted: a webhook
 *    POST (recorded as a workflow run) or an e-mail through the Mailer. While leased a delivery
 *    is `sending`; a lease that runs out makes it due again. Success marks the
 *    delivery delivered; a failure is retried with exponential backoff up to
 *    EVENT_DELIVERY_MAX_ATTEMPTS, then given up, and the workflow's notificationEmails and the
 *    team's owners and admins (in-app) are told. A node that dies mid-attempt leaves the lease
 *    to run out, and the delivery is attempted again (at least once: receivers dedupe on the
 *    event id).
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
    private readonly notifications: NotificationsService,
    @Inject(MAILER) private readonly mailer: Mailer,
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
  async dispatch(limit = this.config.eventDeliveryBatchSize): Promise<number> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (em) => {
      const events: OutboxRow[] = await em.query(
        `SELECT id, workspace_id, type, aggregate_type, aggregate_id, payload, created_at,
                ignored_workflow_id
           FROM outbox_event WHERE dispatched_at IS NULL
          ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      for (const event of events) {
        let targets = 0;
        if (event.workspace_id) {
          const all: WebhookTarget[] = await em.query(
            `SELECT id, period, url, entity, event, field FROM workflow
              WHERE workspace_id = $1 AND type = 'webhook' AND enabled`,
            [event.workspace_id],
          );
          const hooks = all.filter((hook) => wants(hook, event));
          for (const hook of hooks) {
            const due = firstDueAt(hook.period, new Date(event.created_at));
            await em.query(
              `INSERT INTO event_delivery (outbox_event_id, workspace_id, workflow_id, status, next_attempt_at)
               VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
              [
                event.id,
                event.workspace_id,
                hook.id,
                due ? 'pending' : 'held',
                hook.period === 'immediately' || !due ? now : due,
              ],
            );
            targets++;
          }
          // None for an indirect change (`cause`): webhooks only.
          const names = notificationEventsOf(event.type, event.payload);
          const mails: Array<{ id: string; schedule_delay: string | null }> = names.length
            ? await em.query(
                `SELECT id, schedule_delay FROM email_notification
                  WHERE workspace_id = $1 AND enabled AND event = ANY($2::text[])`,
                [event.workspace_id, names],
              )
            : [];
          for (const mail of mails) {
            const delay = scheduleDelayMs(mail.schedule_delay);
            await em.query(
              `INSERT INTO event_delivery (outbox_event_id, workspace_id, email_notification_id, status, next_attempt_at)
               VALUES ($1, $2, $3, 'pending', $4) ON CONFLICT DO NOTHING`,
              [
                event.id,
                event.workspace_id,
                mail.id,
                delay ? new Date(new Date(event.created_at).getTime() + delay) : now,
              ],
            );
            targets++;
          }
        }
        await em.query(
          `UPDATE outbox_event SET dispatched_at = $2, delivered_at = CASE WHEN $3 THEN $2::timestamptz END
            WHERE id = $1`,
          [event.id, now, targets === 0],
        );
      }
      return events.length;
    });
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
    claimed: ClaimedDelivery[],
  ): Promise<Array<{ ok: boolean; runId: string | null }>> {
    const workflowIds = [...new Set(claimed.map((d) => d.workflow_id).filter((id) => id !== null))];
    const reference: Array<{ id: string; concurrency: string }> = workflowIds.length
      ? await this.dataSource.query(
          `SELECT id, concurrency FROM workflow WHERE id = ANY($1::uuid[]) AND url IS NOT NULL`,
          [workflowIds],
        )
      : [];
    const concurrencyOf = new Map(reference.map((w) => [w.id, Math.max(1, Number(w.concurrency))]));
    const single = claimed.filter((d) => !d.workflow_id || !concurrencyOf.has(d.workflow_id));
    const results: Array<{ ok: boolean; runId: string | null }> = [];
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
    return results;
  }

  /** One request of a reference-form webhook for several deliveries; a 401 disables it. */
  private async attemptBatch(
    workflowId: string,
    deliveries: ClaimedDelivery[],
  ): Promise<WebhookOutcome> {
    const now = this.clock.now();
    const events: OutboxRow[] = await this.dataSource.query(
      `SELECT id, workspace_id, type, aggregate_type, aggregate_id, payload, created_at
         FROM outbox_event WHERE id = ANY($1::uuid[]) ORDER BY created_at, id`,
      [deliveries.map((d) => d.outbox_event_id)],
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
    if (outcome.unauthorized) {
      await this.dataSource.query(`UPDATE workflow SET enabled = false WHERE id = $1`, [
        workflowId,
      ]);
    }
    for (const delivery of deliveries) await this.record(delivery, outcome, now, false);
    const last = deliveries[deliveries.length - 1];
    const givenUp =
      !outcome.ok && (outcome.permanent || attempt >= this.config.eventDeliveryMaxAttempts);
    if (givenUp) {
      const reason = outcome.unauthorized
        ? `${outcome.error ?? 'HTTP 401'} (the workflow was disabled)`
        : (outcome.error ?? 'unknown error');
      await this.reportGivenUp({ ...last, attempts: attempt }, reason).catch((e: Error) =>
        this.logger.error(`reporting a failed delivery failed: ${e.message}`),
      );
    }
    return outcome;
  }

  /** Claims due deliveries: locks skip rows other nodes hold; the lease hides them meanwhile. */
  async claimDue(limit: number, workflowIds?: string[]): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    const result = await query<ClaimedDelivery>(
      this.dataSource,
      `WITH due AS (
         SELECT id FROM event_delivery
          WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1
            AND ($4::uuid[] IS NULL OR workflow_id = ANY($4::uuid[]))
          ORDER BY next_attempt_at, id
          LIMIT $2
          FOR UPDATE SKIP LOCKED)
       UPDATE event_delivery d SET status = 'sending', next_attempt_at = $3, attempts = d.attempts + 1
         FROM due WHERE d.id = due.id
       RETURNING d.id, d.outbox_event_id, d.workspace_id, d.workflow_id, d.email_notification_id, d.attempts`,
      [now, limit, new Date(now.getTime() + this.leaseMs), workflowIds ?? null],
    );
    return result;
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
    await this.dataSource.query(
      `UPDATE event_delivery SET status = 'pending', next_attempt_at = LEAST(next_attempt_at, $2)
        WHERE workflow_id = ANY($1::uuid[]) AND status IN ('pending', 'held')`,
      [workflowIds, now],
    );
    await this.dispatch();
    const claimed = await this.claimDue(limit, workflowIds);
    const runs = new Set<string>();
    for (const { runId } of await this.attemptAll(claimed)) if (runId) runs.add(runId);
    await this.closeFinished();
    return [...runs];
  }

  /** Marks events delivered once none of their deliveries is pending or held. */
  async closeFinished(): Promise<number> {
    const result = await query(
      this.dataSource,
      `UPDATE outbox_event e SET delivered_at = $1
        WHERE e.delivered_at IS NULL AND e.dispatched_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM event_delivery d
                           WHERE d.outbox_event_id = e.id AND d.status IN ('pending', 'held', 'sending'))
       RETURNING e.id`,
      [this.clock.now()],
    );
    return result.length;
  }

  /** One attempt: whether it delivered, and the workflow run it made (webhooks). */
  private async attempt(delivery: ClaimedDelivery): Promise<{ ok: boolean; runId: string | null }> {
    const now = this.clock.now();
    const [event]: OutboxRow[] = await this.dataSource.query(
      `SELECT id, workspace_id, type, aggregate_type, aggregate_id, payload, created_at
         FROM outbox_event WHERE id = $1`,
      [delivery.outbox_event_id],
    );
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
    if (result.ok) {
      await this.dataSource.query(
        `UPDATE event_delivery SET status = $2, delivered_at = $3, last_error = $4 WHERE id = $1`,
        [delivery.id, result.skipped ? 'skipped' : 'delivered', now, error],
      );
      await this.dataSource.query(`UPDATE outbox_event SET attempts = attempts + 1 WHERE id = $1`, [
        delivery.outbox_event_id,
      ]);
    } else {
      const givenUp = result.permanent || delivery.attempts >= this.config.eventDeliveryMaxAttempts;
      const next = new Date(
        now.getTime() + retryDelayMs(delivery.attempts, this.config.eventDeliveryRetryBaseSeconds),
      );
      await this.dataSource.query(
        `UPDATE event_delivery SET status = $2, last_error = $3, next_attempt_at = $4 WHERE id = $1`,
        [delivery.id, givenUp ? 'failed' : 'pending', error, givenUp ? now : next],
      );
      await this.dataSource.query(
        `UPDATE outbox_event SET attempts = attempts + 1, last_error = $2,
                next_attempt_at = CASE WHEN $3 THEN next_attempt_at ELSE $4::timestamptz END
          WHERE id = $1`,
        [delivery.outbox_event_id, error, givenUp, next],
      );
      if (givenUp && delivery.workflow_id && reportFailure) {
        await this.reportGivenUp(delivery, error ?? 'unknown error').catch((e: Error) =>
          this.logger.error(`reporting a failed delivery failed: ${e.message}`),
        );
      }
    }
    await this.dataSource.query(
      `UPDATE outbox_event e SET delivered_at = $2
        WHERE e.id = $1 AND e.delivered_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM event_delivery d
                           WHERE d.outbox_event_id = e.id AND d.status IN ('pending', 'held', 'sending'))`,
      [delivery.outbox_event_id, now],
    );
  }

  /** A webhook delivery given up: the workflow's notificationEmails and the team's admins hear. */
  private async reportGivenUp(delivery: ClaimedDelivery, error: string): Promise<void> {
    const rows: Array<{
      title: string | null;
      notification_emails: string[];
      team_id: string;
      workspace_title: string;
    }> = await this.dataSource.query(
      `SELECT w.title, w.notification_emails, ws.team_id, ws.title AS workspace_title
         FROM workflow w JOIN workspace ws ON ws.id = w.workspace_id WHERE w.id = $1`,
      [delivery.workflow_id],
    );
    if (rows.length === 0) return;
    const wf = rows[0];
    const message =
      `Workflow "${wf.title ?? 'webhook'}" of ${wf.workspace_title} could not deliver event ` +
      `${delivery.outbox_event_id} after ${delivery.attempts} attempt(s): ${error}`;
    const admins: Array<{ member_id: string }> = await this.dataSource.query(
      `SELECT member_id FROM team_member
        WHERE team_id = $1 AND member_id IS NOT NULL AND role IN ('owner', 'admin')`,
      [wf.team_id],
    );
    for (const admin of admins) {
      await this.notifications.notify({
        userId: admin.member_id,
        tag: 'workflow_failed',
        message,
        data: [`/workflows/${delivery.workflow_id}`],
      });
    }
    for (const to of wf.notification_emails) {
      await this.mailer.send({
        to,
        subject: `Workflow "${wf.title ?? 'webhook'}" failed`,
        text: `${message}\n\nRuns: /workflows/${delivery.workflow_id}/runs`,
      });
    }
  }
}

/**
 * Whether a webhook workflow receives an event: not when the write that caused it asked not to
 * be echoed to that workflow (ignoreWebhookId); a reference-form workflow (`url`) gets the
 * changes of shipments, shipment items, orders and order items its filter lets through; one
 * with webhook credentials gets the shipment events in this service's signed form.
 */
function wants(hook: WebhookTarget, event: OutboxRow): boolean {
  if (event.ignored_workflow_id && hook.id === event.ignored_workflow_id) return false;
  if (hook.url === null) return event.type.startsWith('shipment.');
  const change = referenceChangeOf(event.type, event.payload);
  return change !== null && passesFilter(change, hook);
}
