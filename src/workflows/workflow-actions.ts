import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Principal, canWriteWorkspace } from '../access/principal';
import { EventDelivery } from '../events/event-delivery';
import { formatDateTime } from '../hydra/serialization/record-reader';

/** Running workflows on demand, and suggestions for new integrations. */
@Injectable()
export class WorkflowActions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly delivery: EventDelivery,
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
    const rows: Array<{ id: string }> = workspaceIds.length
      ? await this.dataSource.query(
          `SELECT id FROM workflow
            WHERE workspace_id = ANY($1::uuid[]) AND enabled AND NOT passive
            ORDER BY created_at, id`,
          [workspaceIds],
        )
      : [];
    const ids = rows.map((r) => r.id);
    const runs = await this.delivery.executeWorkflows(ids);
    return {
      workflows: ids.map((id) => `/workflows/${id}`),
      runs: runs.map((id) => `/workflow_runs/${id}`),
    };
  }

  async suggest(principal: Principal, comment: string) {
    const [row] = await this.dataSource.query(
      `INSERT INTO workflow_suggestion (user_id, comment) VALUES ($1, $2) RETURNING id, created_at`,
      [principal.userId, comment],
    );
    return { id: row.id, comment, createdAt: formatDateTime(new Date(row.created_at)) };
  }
}
