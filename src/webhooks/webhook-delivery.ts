import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CredentialsService } from '../credentials/credentials.service';
import { webhookBody, type WebhookEvent } from './webhook-payload';
import { WebhookRefusedError, WebhookSender } from './webhook-sender';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature';

export interface WebhookOutcome {
  ok: boolean;
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
  ) {}

  async deliver(
    workflowId: string,
    event: WebhookEvent,
    attempt: number,
    now: Date,
  ): Promise<WebhookOutcome> {
    const rows: Array<{ workspace_id: string; enabled: boolean; credentials_id: string | null }> =
      await this.dataSource.query(
        `SELECT workspace_id, enabled, credentials_id FROM workflow WHERE id = $1`,
        [workflowId],
      );
    const workflow = rows[0];
    if (!workflow)
      return { ok: false, permanent: true, error: 'the workflow no longer exists', runId: null };
    const [run] = await this.dataSource.query(
      `INSERT INTO workflow_run (workspace_id, workflow_id, status, event_id, event_type, attempt, started_at)
       VALUES ($1, $2, 'running', $3, $4, $5, $6) RETURNING id`,
      [workflow.workspace_id, workflowId, event.id, event.type, attempt, now],
    );
    const runId: string = run.id;
    const started = Date.now();
    const finish = async (
      status: 'success' | 'failed',
      responseCode: number | null,
      log: string,
      error: string | null,
    ) => {
      await this.dataSource.query(
        `UPDATE workflow_run SET status = $2, response_code = $3, duration = $4, log = $5,
                errors = $6, finished_at = $7, updated_at = now() WHERE id = $1`,
        [
          runId,
          status,
          responseCode,
          Date.now() - started,
          log.slice(0, LOG_LIMIT),
          error,
          new Date(now.getTime() + (Date.now() - started)),
        ],
      );
      await this.dataSource.query(`UPDATE workflow SET last_run_date = $2 WHERE id = $1`, [
        workflowId,
        now,
      ]);
    };

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
