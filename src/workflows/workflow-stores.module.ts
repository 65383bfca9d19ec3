import { Module } from '@nestjs/common';
import { RETENTION_RULES } from '../retention/retention-rule';
import { WORKFLOW_RUN_RETENTION, WorkflowRunStore } from './workflow-run-store';
import { WorkflowStore } from './workflow-store';

/**
 * The workflow tables' stores, apart from WorkflowsModule so that the modules workflows use
 * (webhook and event delivery, credentials) can read and record workflows and their runs
 * without importing it back.
 */
@Module({
  providers: [
    WorkflowStore,
    WorkflowRunStore,
    { provide: RETENTION_RULES, useValue: WORKFLOW_RUN_RETENTION },
  ],
  exports: [WorkflowStore, WorkflowRunStore],
})
export class WorkflowStoresModule {}
