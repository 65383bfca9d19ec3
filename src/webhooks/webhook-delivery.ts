import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CredentialsService } from '../credentials/credentials.service';
import { RecordChangeEvents } from '../events/record-change-events';
import { EventTypes, PREDICTION_EVENTS } from '../events/event-types';
import { Shipment } from '../shipments/shipment.entity';
import { WorkflowRunStore } from '../workflows/workflow-run-store';
import { WorkflowStore } from '../workflows/workflow-store';
import {
  referenceAuthorization,
  referenceChangeOf,
  referenceWebhookBody,
  type ReferenceChange,
} from './reference-webhook-body';
import { webhookBody, type WebhookEvent } from './webhook-payload';
import { WebhookRefusedError, WebhookSender } from './webhook-sender';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature';

export interface WebhookOutcome {
  ok: boolean;
  /** The endpoint answered 401: a reference-form workflow is disabled (its credentials are wrong). */
  unauthorized?: boolean;
  /** Retrying cannot help (no credentials, refused target): give up now. */
  permanent: boolean;
  error: string | null;
  runId: string | null;
}

const LOG_LIMIT = 4000;

/**
 * One delivery attempt of one event to one webhook workflow, recorded as a workflow run:
 * the run is `running` while the request is out (so runInProgress shows it), then `success`
 * (2xx) or `failed` with the response code, duration, a log of request and answer, and the
 * error. The body is signed (X-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">,
 * keyed with the credentials' signingSecret) and carries the event id in X-Event-Id.
 */
@Injectable()
export class WebhookDelivery {
  constructor(
    private readonly dataSource: DataSource,
    private readonly credentials: CredentialsService,
    private readonly sender: WebhookSender,
    private readonly changes: RecordChangeEvents,
    private readonly workflows: WorkflowStore,
    private readonly runs: WorkflowRunStore,
  ) {}

  /**
   * One request of a reference-form workflow (`url` set) carrying up to 500 events in the
   * reference's body `{"data": [{entity, event, data, updatedFields}]}`, with its Basic or
   * Bearer authentication, recorded as one workflow run. The HMAC signature is added when the
   * workflow has a key (its credentials' signingSecret, else its password). A 401 answer says
   * the credentials are wrong: the caller disables the workflow.
   */
  async deliverBatch(
    workflowId: string,
    events: readonly WebhookEvent[],
    attempt: number,
    now: Date,
  ): Promise<WebhookOutcome> {
    const workflow = await this.workflows.delivered(this.dataSource, workflowId);
    if (!workflow || !workflow.url)
      return { ok: false, permanent: true, error: 'the workflow no longer exists', runId: null };
    const first = events[0];
    const runId = await this.runs.start(this.dataSource, {
      workspaceId: workflow.workspace_id,
      workflowId,
      eventId: first.id,
      eventType: first.type,
      attempt,
      startedAt: now,
    });
    const started = Date.now();
    const finish = (
      status: 'success' | 'failed',
      code: number | null,
      log: string,
      error: string | null,
    ) => this.finishRun(workflowId, runId, now, started, status, code, log, error);
    if (!workflow.enabled) {
      await finish('failed', null, '', 'The workflow is disabled.');
      return { ok: false, permanent: true, error: 'the workflow is disabled', runId };
    }

    const changes: ReferenceChange[] = [];
    for (const event of events) {
      const change = referenceChangeOf(event.type, event.payload);
      if (!change) continue;
      if (
        event.type === EventTypes.shipmentStatusChanged ||
        (PREDICTION_EVENTS as readonly string[]).includes(event.type)
      ) {
        // The shipment as it is now: receivers map it whole (its store id included).
        const id = String(change.data.id ?? '');
        const current = id
          ? await this.changes.snapshot(this.dataSource.manager, Shipment, id)
          : null;
        if (current) change.data = current.representation;
      }
      changes.push(change);
    }
    const body = referenceWebhookBody(changes);
    const headers: Record<string, string> = {
      'User-Agent': 'ShipmentTracking-Webhooks/1.0',
      'X-Event-Id': first.id,
      'X-Delivery-Attempt': String(attempt),
    };
    const authorization = referenceAuthorization(workflow);
    if (authorization) headers.Authorization = authorization;
    const credentials = workflow.credentials_id
      ? await this.credentials.open(this.dataSource, workflow.credentials_id)
      : null;
    const key = credentials?.secrets.signingSecret ?? workflow.password;
    if (key)
      headers[SIGNATURE_HEADER] = signatureHeader(key, Math.floor(now.getTime() / 1000), body);
    const request = `POST ${workflow.url}\n${events.length} event(s)\n\n${body}`;
    try {
      const response = await this.sender.post(workflow.url, body, headers);
      const log = `${request}\n\nHTTP ${response.status}\n${response.body}`;
      if (response.status >= 200 && response.status < 300) {
        await finish('success', response.status, log, null);
        return { ok: true, permanent: false, error: null, runId };
      }
      const unauthorized = response.status === 401;
      const error = unauthorized
        ? 'The endpoint answered HTTP 401: the workflow is disabled until its credentials are fixed.'
        : `The endpoint answered HTTP ${response.status}.`;
      await finish('failed', response.status, log, error);
      return { ok: false, permanent: unauthorized, unauthorized, error, runId };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const permanent = e instanceof WebhookRefusedError;
      await finish('failed', null, request, permanent ? message : `Request failed: ${message}`);
      return { ok: false, permanent, error: message, runId };
    }
  }

  private async finishRun(
    workflowId: string,
    runId: string,
    now: Date,
    started: number,
    status: 'success' | 'failed',
    responseCode: number | null,
    log: string,
    error: string | null,
  ): Promise<void> {
    const duration = Date.now() - started;
    await this.runs.finish(this.dataSource, runId, {
      status,
      responseCode,
      duration,
      log: log.slice(0, LOG_LIMIT),
      errors: error,
      finishedAt: new Date(now.getTime() + duration),
    });
    await this.workflows.ranAt(this.dataSource, workflowId, now);
  }

  async deliver(
    workflowId: string,
    event: WebhookEvent,
    attempt: number,
    now: Date,
  ): Promise<WebhookOutcome> {
    const workflow = await this.workflows.delivered(this.dataSource, workflowId);
    if (!workflow)
      return { ok: false, permanent: true, error: 'the workflow no longer exists', runId: null };
    const runId = await this.runs.start(this.dataSource, {
      workspaceId: workflow.workspace_id,
      workflowId,
      eventId: event.id,
      eventType: event.type,
      attempt,
      startedAt: now,
    });
    const started = Date.now();
    const finish = (
      status: 'success' | 'failed',
      responseCode: number | null,
      log: string,
      error: string | null,
    ) => this.finishRun(workflowId, runId, now, started, status, responseCode, log, error);

    if (!workflow.enabled) {
      await finish('failed', null, '', 'The workflow is disabled.');
      return { ok: false, permanent: true, error: 'the workflow is disabled', runId };
    }
    const credentials = workflow.credentials_id
      ? await this.credentials.open(this.dataSource, workflow.credentials_id)
      : null;
    const url = credentials?.parameters.url;
    const secret = credentials?.secrets.signingSecret;
    if (typeof url !== 'string' || !secret) {
      const error = 'The workflow has no webhook credentials with a url and a signingSecret.';
      await finish('failed', null, '', error);
      return { ok: false, permanent: true, error, runId };
    }

    const body = webhookBody(event);
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      'User-Agent': 'ShipmentTracking-Webhooks/1.0',
      'X-Event-Id': event.id,
      'X-Event-Type': event.type,
      'X-Delivery-Attempt': String(attempt),
      [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, body),
    };
    const request = `POST ${url}\nX-Event-Id: ${event.id}\nX-Event-Type: ${event.type}\n\n${body}`;
    try {
      const response = await this.sender.post(url, body, headers);
      const log = `${request}\n\nHTTP ${response.status}\n${response.body}`;
      if (response.status >= 200 && response.status < 300) {
        await finish('success', response.status, log, null);
        return { ok: true, permanent: false, error: null, runId };
      }
      const error = `The endpoint answered HTTP ${response.status}.`;
      await finish('failed', response.status, log, error);
      return { ok: false, permanent: false, error, runId };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const permanent = e instanceof WebhookRefusedError;
      await finish('failed', null, request, permanent ? message : `Request failed: ${message}`);
      return { ok: false, permanent, error: message, runId };
    }
  }
}
