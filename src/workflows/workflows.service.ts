import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { CredentialsService } from '../credentials/credentials.service';
import { Violation, ViolationCodes } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { moveNotesOf, removeNotesOfRecord } from '../notes/record-notes';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { WebhookSender } from '../webhooks/webhook-sender';
import type { Credentials } from '../credentials/credentials.entity';
import { IntegrationData, deleteDataRequested } from './integration-data';
import { MAX_WEBHOOK_CONCURRENCY, workflowType } from './workflow-types';
import { Workflow } from './workflow.entity';

const MAX_NOTIFICATION_EMAILS = 20;
/** How deep `integration` objects may nest in one request. */
const MAX_NESTING = 3;

/**
 * Workflow rules: the read-only facts (tags, integrationType, passive, remote,
 * firstTimeSetupRequired) follow the type; `credentials` given as an object on POST creates
 * them (team defaults to the workspace's) and must belong to the workspace's team and suit
 * the type; an enabled webhook needs credentials with a public http(s) `url` and a
 * `signingSecret`; `integration` is a workflow of the same workspace (an object creates one),
 * never the workflow itself or one that leads back to it. PUT replaces (`replaceOnPut`): by
 * the time these hooks run, attributes the body left out hold their POST defaults.
 */
@Injectable()
export class WorkflowsService implements ResourceHooks<Workflow> {
  private readonly depth = new WeakMap<object, number>();
  /** The workspace a workflow being replaced had before the PUT (afterWrite sees the new one). */
  private readonly previousWorkspace = new WeakMap<Workflow, string>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
    private readonly credentials: CredentialsService,
    private readonly webhooks: WebhookSender,
    private readonly integrationData: IntegrationData,
  ) {}

  async prepare(workflow: Workflow, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    if (ctx.operation === 'put' && workflow.id) {
      // The PUT's load holds the row FOR UPDATE, so this is still the stored workspace.
      const [row]: Array<{ workspace_id: string }> = await em.query(
        `SELECT workspace_id FROM workflow WHERE id = $1`,
        [workflow.id],
      );
      if (row) this.previousWorkspace.set(workflow, row.workspace_id);
    }
    if (ctx.operation === 'post') {
      workflow.enabled ??= true;
      workflow.notificationEmails ??= [];
      workflow.firstTimeSetupPassed ??= false;
    }
    workflow.url = blank(workflow.url);
    workflow.username = blank(workflow.username);
    workflow.password = blank(workflow.password);
    workflow.field = blank(workflow.field);
    workflow.concurrency ??= '1';
    const spec = workflowType(workflow.type);
    if (spec) {
      workflow.tags = [...spec.tags];
      workflow.integrationType = spec.integrationType;
      workflow.passive = spec.passive;
      workflow.remote = spec.remote;
      workflow.firstTimeSetupRequired = spec.requiresSetup && !workflow.firstTimeSetupPassed;
    }
    const workspaceId = await this.workspaceOf(workflow, ctx);
    if (!workspaceId) return; // NotBlank reports it
    const [{ team_id: teamId }] = await em.query(`SELECT team_id FROM workspace WHERE id = $1`, [
      workspaceId,
    ]);

    const credentialsInput = ctx.nested.credentials;
    if (credentialsInput) {
      const id = await this.credentials.createNested(em, credentialsInput, teamId, ctx.principal);
      workflow.credentials = { id } as Credentials;
    }

    if ('integration' in ctx.nested) {
      const input = ctx.nested.integration;
      if (input === null) {
        workflow.integration = null;
      } else {
        const depth = (ctx.request ? (this.depth.get(ctx.request) ?? 0) : 0) + 1;
        if (depth > MAX_NESTING) {
          workflow.integration = null;
        } else {
          if (ctx.request) this.depth.set(ctx.request, depth);
          const body = { ...input };
          body.workspace ??= `/workspaces/${workspaceId}`;
          const id = await this.writer.createWithin(
            em,
            this.registry.get(Workflow),
            body,
            ctx.principal,
            this,
            'integration',
            ctx.request,
          );
          workflow.integration = { id } as Workflow;
        }
      }
    }
  }

  async validate(workflow: Workflow, ctx: WriteContext): Promise<Violation[]> {
    const { em } = ctx;
    const out: Violation[] = [];
    const emails = workflow.notificationEmails ?? [];
    if (emails.length > MAX_NOTIFICATION_EMAILS) {
      out.push(
        invalid(
          'notificationEmails',
          `This collection should contain ${MAX_NOTIFICATION_EMAILS} elements or less.`,
        ),
      );
    }
    emails.forEach((email, i) => {
      if (!isEmail(email)) {
        out.push({
          propertyPath: `notificationEmails[${i}]`,
          message: 'This value is not a valid email address.',
          code: ViolationCodes.email,
        });
      }
    });
    const workspaceId = await this.workspaceOf(workflow, ctx);
    const spec = workflowType(workflow.type);
    if (!workspaceId || !spec) return out;

    const credentialsId = workflow.credentials?.id ?? null;
    const opened = credentialsId ? await this.credentials.open(em, credentialsId) : null;
    if (opened) {
      const [{ team_id: teamId }] = await em.query(`SELECT team_id FROM workspace WHERE id = $1`, [
        workspaceId,
      ]);
      if (opened.teamId !== teamId) {
        out.push(
          invalid('credentials', 'The credentials must belong to the team of the workspace.'),
        );
      } else if (!spec.credentialTypes.includes(opened.type)) {
        out.push(
          invalid(
            'credentials',
            spec.credentialTypes.length
              ? `A ${workflow.type} workflow takes credentials of type ${spec.credentialTypes.join(', ')}.`
              : `A ${workflow.type} workflow takes no credentials.`,
          ),
        );
      }
    }
    if (workflow.type === 'webhook') out.push(...this.referenceWebhookViolations(workflow));
    if (workflow.type === 'webhook' && workflow.enabled !== false && workflow.url === null) {
      const url = opened?.parameters.url;
      if (!opened || typeof url !== 'string' || !opened.secrets.signingSecret) {
        out.push(
          invalid(
            'credentials',
            'An enabled webhook workflow needs a url, or webhook credentials with parameters.url and secrets.signingSecret.',
          ),
        );
      } else {
        const problem = this.webhooks.staticProblem(url);
        if (problem) out.push(invalid('credentials', problem));
      }
    }

    const integrationId = workflow.integration?.id;
    if (integrationId) {
      const rows: Array<{ workspace_id: string }> = await em.query(
        `SELECT workspace_id FROM workflow WHERE id = $1`,
        [integrationId],
      );
      if (rows[0]?.workspace_id !== workspaceId) {
        out.push(
          invalid('integration', 'The integration must be a workflow of the same workspace.'),
        );
      } else if (workflow.id && (await this.leadsBackTo(ctx, integrationId, workflow.id))) {
        out.push(invalid('integration', 'A workflow cannot be its own integration.'));
      }
    }
    return out;
  }

  /** The reference's form: a public http(s) url, the credentials its authType needs. */
  private referenceWebhookViolations(workflow: Workflow): Violation[] {
    const out: Violation[] = [];
    const concurrency = Number(workflow.concurrency);
    if (
      !Number.isInteger(concurrency) ||
      concurrency < 1 ||
      concurrency > MAX_WEBHOOK_CONCURRENCY
    ) {
      out.push(
        invalid(
          'concurrency',
          `This value should be a whole number between 1 and ${MAX_WEBHOOK_CONCURRENCY}.`,
        ),
      );
    }
    if (workflow.url !== null) {
      const problem = this.webhooks.staticProblem(workflow.url);
      if (problem) out.push(invalid('url', problem));
    }
    if (
      workflow.authType === 'basic' &&
      (workflow.username === null || workflow.password === null)
    ) {
      out.push(invalid('username', 'Basic authentication needs a username and a password.'));
    }
    if (workflow.authType === 'bearer' && workflow.password === null) {
      out.push(invalid('password', 'Bearer authentication needs the token as password.'));
    }
    return out;
  }

  /**
   * A workflow moved to another workspace takes along its runs, and the notes on it and on its
   * runs (with their reminders and files), and drops its pending deliveries of the old
   * workspace's events.
   */
  async afterWrite(workflow: Workflow, ctx: WriteContext): Promise<void> {
    const to = workflow.workspace?.id;
    if (ctx.operation !== 'put' || !to) return;
    const from = this.previousWorkspace.get(workflow);
    if (from === undefined || from === to) return;
    await ctx.em.query(
      `UPDATE workflow_run SET workspace_id = $2 WHERE workflow_id = $1 AND workspace_id <> $2`,
      [workflow.id, to],
    );
    await moveNotesOf(ctx.em, 'workflows', [workflow.id], to);
    await ctx.em.query(
      `DELETE FROM event_delivery WHERE workflow_id = $1 AND workspace_id <> $2 AND status IN ('pending', 'held')`,
      [workflow.id, to],
    );
  }

  /**
   * DELETE: the notes on the workflow and on its runs (deleted with it) go too; with
   * `?deleteData=1` also the records the integration brought in (integration-data.ts).
   */
  async beforeRemove(workflow: Workflow, ctx: WriteContext): Promise<void> {
    if (deleteDataRequested(ctx.request?.query?.deleteData)) {
      await this.integrationData.remove(ctx, workflow.id);
    }
    await removeNotesOfRecord(ctx, workflow.id);
  }

  private async workspaceOf(workflow: Workflow, ctx: WriteContext): Promise<string | null> {
    if (workflow.workspace?.id) return workflow.workspace.id;
    if (!workflow.id) return null;
    const rows: Array<{ workspace_id: string }> = await ctx.em.query(
      `SELECT workspace_id FROM workflow WHERE id = $1`,
      [workflow.id],
    );
    return rows[0]?.workspace_id ?? null;
  }

  /** True when following `integration` links from `startId` reaches `selfId`. */
  private async leadsBackTo(ctx: WriteContext, startId: string, selfId: string): Promise<boolean> {
    const rows: Array<{ found: boolean }> = await ctx.em.query(
      `WITH RECURSIVE chain(id, depth) AS (
         SELECT $1::uuid, 0
         UNION ALL
         SELECT w.integration_id, c.depth + 1 FROM workflow w JOIN chain c ON w.id = c.id
          WHERE w.integration_id IS NOT NULL AND c.depth < 50)
       SELECT EXISTS (SELECT 1 FROM chain WHERE id = $2::uuid) AS found`,
      [startId, selfId],
    );
    return rows[0].found;
  }
}

function invalid(propertyPath: string, message: string): Violation {
  return { propertyPath, message, code: ViolationCodes.invalid };
}

function blank(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}
