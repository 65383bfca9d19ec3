import { Injectable } from '@nestjs/common';
import { CredentialsService } from '../credentials/credentials.service';
import type { Credentials } from '../credentials/credentials.entity';
import type { Violation } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { WebhookSender } from '../webhooks/webhook-sender';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import { VisibleMemory } from '../hydra/collection/visible-memory';
import { IntegrationData, deleteDataRequested } from './integration-data';
import { WorkflowDependents } from './workflow-dependents';
import { WorkflowExecutors } from './workflow-executors';
import {
  MAX_NESTING,
  applyExecution,
  applyNestedDefaults,
  applyWriteDefaults,
  credentialsViolations,
  integrationViolations,
  notificationEmailViolations,
  webhookViolations,
} from './workflow-rules';
import { WorkflowStore } from './workflow-store';
import { canonicalWorkflowType, workflowType } from './workflow-types';
import { Workflow } from './workflow.entity';

/** What one workflow write carries between its steps (`ctx.state`). */
export interface WorkflowWrite {
  /** How deep in `integration` objects the write is: 0 for the request's own workflow. */
  depth: number;
  /** On PUT, the workspace the workflow had before (afterWrite sees the new one). */
  previousWorkspace: string | null;
}

/**
 * Workflow rules (pure ones in workflow-rules.ts): the read-only facts (tags, integrationType,
 * passive, remote, firstTimeSetupRequired) follow the type; `credentials` given as an object
 * on POST creates them (team defaults to the workspace's) and must belong to the workspace's
 * team and suit the type; an enabled webhook needs credentials with a public http(s) `url`
 * and a `signingSecret`, or the reference's form (its own url and authentication);
 * `integration` is a workflow of the same workspace (an object creates one, MAX_NESTING deep
 * at most), never the workflow itself or one that leads back to it. PUT replaces
 * (`replaceOnPut`): by the time these hooks run, attributes the body left out hold their POST
 * defaults. A workflow moved to another workspace takes its runs, notes and deliveries along
 * (WorkflowDependents); DELETE with `?deleteData=1` takes the records it brought in
 * (integration-data.ts).
 */
@Injectable()
export class WorkflowsService implements ResourceHooks<Workflow, WorkflowWrite> {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
    private readonly credentials: CredentialsService,
    private readonly webhooks: WebhookSender,
    private readonly integrationData: IntegrationData,
    private readonly workflows: WorkflowStore,
    private readonly workspaces: WorkspaceLookupStore,
    private readonly dependents: WorkflowDependents,
    private readonly executors: WorkflowExecutors,
  ) {}

  begin(workflow: Workflow, ctx: WriteContext<undefined>): Promise<WorkflowWrite> {
    return this.beginAt(0, workflow, ctx);
  }

  async prepare(workflow: Workflow, ctx: WriteContext<WorkflowWrite>): Promise<void> {
    applyWriteDefaults(workflow, ctx.operation);
    if (ctx.state.depth > 0) applyNestedDefaults(workflow);
    const workspaceId = await this.workspaceOf(workflow, ctx);
    if (!workspaceId) return; // NotBlank reports it
    const credentialsInput = ctx.nested.credentials;
    if (credentialsInput) {
      const teamId = (await this.workspaces.teamOf(ctx.em, workspaceId))!;
      const id = await this.credentials.createNested(
        ctx.em,
        credentialsInput,
        teamId,
        ctx.principal,
      );
      workflow.credentials = { id } as Credentials;
    }
    if ('integration' in ctx.nested) {
      const input = ctx.nested.integration;
      const depth = ctx.state.depth + 1;
      if (input === null || depth > MAX_NESTING) {
        workflow.integration = null;
      } else {
        const body = { ...input };
        body.workspace ??= `/workspaces/${workspaceId}`;
        const id = await this.writer.createWithin(
          ctx.em,
          this.registry.get(Workflow),
          body,
          ctx.principal,
          this.nestedAt(depth),
          'integration',
          ctx.request,
        );
        workflow.integration = { id } as Workflow;
      }
    }
    await this.decideExecution(workflow, ctx);
  }

  /**
   * A type with an executor (store sync) is run here, neither passive nor remote, when its
   * executor says so for the workflow's credentials; otherwise the type's own facts stand.
   */
  private async decideExecution(workflow: Workflow, ctx: WriteContext<WorkflowWrite>) {
    const executor = this.executors.forType(workflow.type);
    if (!executor) return;
    const credentialsId = workflow.credentials?.id ?? null;
    const opened = credentialsId ? await this.credentials.open(ctx.em, credentialsId) : null;
    applyExecution(
      workflow,
      executor.runs(canonicalWorkflowType(workflow.type), opened?.type ?? null),
    );
  }

  async validate(workflow: Workflow, ctx: WriteContext<WorkflowWrite>): Promise<Violation[]> {
    const { em } = ctx;
    const out = notificationEmailViolations(workflow.notificationEmails ?? []);
    const workspaceId = await this.workspaceOf(workflow, ctx);
    const spec = workflowType(workflow.type);
    if (!workspaceId || !spec) return out;
    const credentialsId = workflow.credentials?.id ?? null;
    const opened = credentialsId ? await this.credentials.open(em, credentialsId) : null;
    if (opened) {
      const teamId = await this.workspaces.teamOf(em, workspaceId);
      out.push(...credentialsViolations(workflow.type, spec, opened, teamId));
    }
    if (workflow.type === 'webhook')
      out.push(...webhookViolations(workflow, opened, (url) => this.webhooks.staticProblem(url)));
    const integrationId = workflow.integration?.id;
    if (integrationId) {
      const integrationWorkspace = await this.workflows.workspaceOf(em, integrationId);
      const leadsBack =
        integrationWorkspace === workspaceId && !!workflow.id
          ? await this.workflows.leadsBackTo(em, integrationId, workflow.id)
          : false;
      out.push(...integrationViolations(workspaceId, integrationWorkspace, leadsBack));
    }
    return out;
  }

  /**
   * A workflow moved to another workspace takes what belongs to it along; its executor (if
   * any) learns what was written.
   */
  async afterWrite(workflow: Workflow, ctx: WriteContext<WorkflowWrite>): Promise<void> {
    const to = workflow.workspace?.id;
    const from = ctx.state.previousWorkspace;
    if (ctx.operation === 'put' && to && from !== null && from !== to) {
      await this.dependents.move(ctx.em, workflow.id, to);
      // Its records left their workspace: what the transaction remembered of them is stale.
      VisibleMemory.forget(ctx.em);
    }
    const executor = this.executors.forType(workflow.type);
    const workspaceId = await this.workspaceOf(workflow, ctx);
    if (executor && workspaceId)
      await executor.written(ctx.em, {
        id: workflow.id,
        type: canonicalWorkflowType(workflow.type),
        workspaceId,
        enabled: workflow.enabled,
        period: workflow.period,
        firstTimeSetupPassed: workflow.firstTimeSetupPassed,
        credentialsId: workflow.credentials?.id ?? null,
        runsHere: !workflow.passive,
      });
  }

  /**
   * DELETE: the notes on the workflow and on its runs (deleted with it) go too; with
   * `?deleteData=1` also the records the integration brought in (integration-data.ts).
   */
  async beforeRemove(workflow: Workflow, ctx: WriteContext<WorkflowWrite>): Promise<void> {
    if (deleteDataRequested(ctx.request?.query?.deleteData))
      await this.integrationData.remove(ctx, workflow.id);
    await this.dependents.removeNotes(ctx, workflow.id);
  }

  private async beginAt(
    depth: number,
    workflow: Workflow,
    ctx: WriteContext<undefined>,
  ): Promise<WorkflowWrite> {
    // On PUT the row is loaded FOR UPDATE: this is still the stored workspace.
    const previousWorkspace =
      ctx.operation === 'put' && workflow.id
        ? await this.workflows.workspaceOf(ctx.em, workflow.id)
        : null;
    return { depth, previousWorkspace };
  }

  /** The hooks of a workflow created from an `integration` object `depth` levels down. */
  private nestedAt(depth: number): ResourceHooks<Workflow, WorkflowWrite> {
    return {
      begin: (workflow, ctx) => this.beginAt(depth, workflow, ctx),
      prepare: (workflow, ctx) => this.prepare(workflow, ctx),
      validate: (workflow, ctx) => this.validate(workflow, ctx),
      afterWrite: (workflow, ctx) => this.afterWrite(workflow, ctx),
    };
  }

  private async workspaceOf(workflow: Workflow, ctx: WriteContext<unknown>) {
    if (workflow.workspace?.id) return workflow.workspace.id;
    return workflow.id ? this.workflows.workspaceOf(ctx.em, workflow.id) : null;
  }
}
