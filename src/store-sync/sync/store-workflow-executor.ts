import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import type { WorkflowExecutor, WrittenWorkflow } from '../../workflows/workflow-executors';
import { pullIntervalSeconds } from '../rules/store-connection';
import { STORE_PLATFORM_TYPES } from '../store-platform';
import { StoreSyncQueue } from './store-sync-queue';
import { StoreSyncStateStore } from './store-sync-state-store';

/**
 * The store workflows' executor (WORKFLOW_EXECUTORS): a `shopify`, `woocommerce` or
 * `bigcommerce` workflow with credentials of its type is run here; one without (the reference's
 * WooCommerce plugin creates such) stays passive and remote. A written workflow's sync state
 * follows it: once enabled and set up (firstTimeSetupPassed) its first run is queued at once,
 * then pulls come on its period; POST /workflows/execute asks for a pull now.
 */
@Injectable()
export class StoreWorkflowExecutor implements WorkflowExecutor {
  readonly types = STORE_PLATFORM_TYPES;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly state: StoreSyncStateStore,
    private readonly queue: StoreSyncQueue,
  ) {}

  runs(type: string, credentialsType: string | null): boolean {
    return credentialsType !== null && credentialsType === type;
  }

  async written(em: EntityManager, workflow: WrittenWorkflow): Promise<void> {
    const active = workflow.enabled && workflow.runsHere && workflow.firstTimeSetupPassed;
    await this.state.set(em, {
      workflowId: workflow.id,
      platform: workflow.type,
      active,
      intervalSeconds: pullIntervalSeconds(workflow.period, this.config.storeSyncPullMinutes),
    });
    // Its first run (or a pull due after a change of period) starts without waiting for a tick.
    if (active) await this.queue.request(workflow.id, 'period', { runner: em });
  }

  async execute(workflowIds: readonly string[]): Promise<string[]> {
    const requested = await this.state.requestPull(this.dataSource, workflowIds, new Date());
    for (const id of requested) await this.queue.request(id, 'execute');
    const runs: string[] = [];
    for (const id of requested) {
      const row = await this.state.find(this.dataSource, id);
      if (row?.run_id) runs.push(row.run_id);
    }
    return runs;
  }
}
