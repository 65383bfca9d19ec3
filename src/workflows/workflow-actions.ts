import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Principal, canWriteWorkspace } from '../access/principal';
import { EventDelivery } from '../events/event-delivery';
import { formatDateTime } from '../hydra/serialization/record-reader';
import { WorkflowStore } from './workflow-store';

/** Running workflows on demand, and suggestions for new integrations. */
@Injectable()
export class WorkflowActions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly delivery: EventDelivery,
    private readonly workflows: WorkflowStore,
  ) {}

  /**
   * Runs the enabled workflows that have an executor (webhooks) of `workspaceId`, or of every
   * workspace the caller may write: every delivery they hold (period manual), wait for
   * (hourly, daily) or retry later becomes due and is attempted at once.
   */
  async execute(principal: Principal, workspaceId: string | undefined) {
    const workspaceIds = workspaceId
      ? [workspaceId]
      : principal.workspaceIds.filter((id) => canWriteWorkspace(principal, id));
    const ids = await this.workflows.executable(this.dataSource, workspaceIds);
    const runs = await this.delivery.executeWorkflows(ids);
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
