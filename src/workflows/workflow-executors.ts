import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EntityManager } from 'typeorm';
import { canonicalWorkflowType } from './workflow-types';

/** A workflow as its executor sees it once written (in the write's transaction). */
export interface WrittenWorkflow {
  readonly id: string;
  /** Canonical type (`shopify`, not `integration-shopify`). */
  readonly type: string;
  readonly workspaceId: string;
  readonly enabled: boolean;
  readonly period: string;
  readonly firstTimeSetupPassed: boolean;
  readonly credentialsId: string | null;
  /** The workflow is run here (not passive): its executor said so when it was prepared. */
  readonly runsHere: boolean;
}

/**
 * What runs workflows of some types on this side, besides webhooks (which the outbox
 * delivers): the store sync. Provided under WORKFLOW_EXECUTORS in the executing module's own
 * `@Module`; the workflows module looks executors up by type (WorkflowExecutors).
 */
export interface WorkflowExecutor {
  /** The canonical workflow types it runs. */
  readonly types: readonly string[];
  /**
   * Whether a workflow of `type` with credentials of `credentialsType` (null: none) is run by
   * this service: then it is neither passive nor remote.
   */
  runs(type: string, credentialsType: string | null): boolean;
  /** After every create or replace of a workflow of its types, in the write's transaction. */
  written(em: EntityManager, workflow: WrittenWorkflow): Promise<void>;
  /**
   * POST /workflows/execute for these workflows (of its types, enabled, run here): their runs
   * start now; answers the ids of the runs made or already under way.
   */
  execute(workflowIds: readonly string[]): Promise<string[]>;
}

export const WORKFLOW_EXECUTORS = Symbol('workflows:executors');

/** The executors other modules provide, by workflow type (looked up once, at first use). */
@Injectable()
export class WorkflowExecutors {
  private byType?: Map<string, WorkflowExecutor>;

  constructor(private readonly moduleRef: ModuleRef) {}

  /** The executor of a workflow type (reference names included), if any. */
  forType(type: string): WorkflowExecutor | undefined {
    if (!this.byType) {
      this.byType = new Map();
      let executors: WorkflowExecutor[] = [];
      try {
        executors = this.moduleRef.get<WorkflowExecutor>(WORKFLOW_EXECUTORS, {
          strict: false,
          each: true,
        });
      } catch {
        executors = []; // no module provides one (a test module without store sync)
      }
      for (const executor of executors)
        for (const t of executor.types) this.byType.set(t, executor);
    }
    return this.byType.get(canonicalWorkflowType(type));
  }
}
