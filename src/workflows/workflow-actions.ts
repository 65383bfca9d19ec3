import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Principal, canWriteWorkspace } from '../access/principal';
import { EventDelivery } from '../events/event-delivery';
import { formatDateTime } from '../hydra/serialization/record-reader';
import { WorkflowExecutors } from './workflow-executors';
import { WorkflowStore } from './workflow-store';

/** Running workflows on demand, and suggestions for new integrations. */
@Injectable()
export class WorkflowActions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly delivery: EventDelivery,
    private readonly workflows: WorkflowStore,
    private readonly executors: WorkflowExecutors,
  ) {}

  /**
   * Runs the enabled workflows that have an executor of `workspaceId`, or of every workspace
   * the caller may write: every delivery they hold (period manual), wait for (hourly, daily)
   * or retry later becomes due and is attempted at once (webhooks, tracking sent back to
   * stores), and store workflows start a run (src/store-sync).
   */
  async execute(principal: Principal, workspaceId: string | undefined) {
    const workspaceIds = workspaceId
      ? [workspaceId]
      : principal.workspaceIds.filter((id) => canWriteWorkspace(principal, id));
    const workflows = await this.workflows.executable(this.dataSource, workspaceIds);
    const ids = workflows.map((w) => w.id);
    const runs = await this.delivery.executeWorkflows(ids);
    const byExecutor = new Map<NonNullable<ReturnType<WorkflowExecutors['forType']>>, string[]>();
    for (const { id, type } of workflows) {
      const executor = this.executors.forType(type);
      if (executor) byExecutor.set(executor, [...(byExecutor.get(executor) ?? []), id]);
    }
    for (const [executor, mine] of byExecutor) runs.push(...(await executor.execute(mine)));
    return {
      workflows: ids.map((id) => `/workflows/${id}`),
      runs: runs.map((id) => `/workflow_runs/${id}`),
    };
  }

  async suggest(principal: Principal, comment: string) {
    const { id, createdAt } = await this.workflows.suggest(
      this.dataSource,
      principal.userId,
      comment,
    );
    return { id, comment, createdAt: formatDateTime(createdAt) };
  }
}
