import { Controller } from '@nestjs/common';
import { allOf, ownersOfInput } from '../access/access-target';
import type { Principal } from '../access/principal';
import { Action } from '../hydra/actions/action.decorator';
import { scopedWorkspace } from '../workspaces/workspace-scoped.input';
import { BATCH_ENTITIES, DELETE_BATCH_ENTITIES, STATUS_BATCH_ENTITIES } from './batch-entities';
import { BatchJob } from './batch-job.entity';
import { BatchJobs } from './batch-jobs';
import { BatchOperations } from './batch-operations';
import { ChangeStatusBatchResult, DeleteRecordsBatchResult } from './batch.output';
import { MAX_ASYNC_BATCH, MAX_SYNC_BATCH, batchRequest, statusSpec } from './batch-request';
import {
  ChangeStatusBatchAsyncInput,
  ChangeStatusBatchInput,
  DeleteRecordsBatchInput,
} from './batch.input';

/** The records a batch names, and the workspace it may be limited to, are what it writes. */
const batchWorkspaces = allOf(
  ownersOfInput({ of: (input) => BATCH_ENTITIES[String(input.entity)]?.target }, 'ids'),
  scopedWorkspace,
);

/**
 * Batch actions (the reference's request bodies; ids may be ids or IRIs). All or nothing: a
 * foreign or missing id is 404, a record outside `workspaceId` or an unknown status 422, a
 * read-only member 403, and nothing changes.
 */
@Controller()
export class BatchesController {
  constructor(
    private readonly operations: BatchOperations,
    private readonly jobs: BatchJobs,
  ) {}

  @Action({
    method: 'POST',
    path: '/change_status_batch',
    summary: 'Sets the status of up to 1000 shipments or orders at once.',
    description:
      'Gives every named record the status `statusId` or `status` (IRI, id, or a code of the records’ workspace). Answers what changed and what already had the status.',
    input: ChangeStatusBatchInput,
    output: { json: ChangeStatusBatchResult },
    access: 'workspace:write',
    workspace: batchWorkspaces,
  })
  changeStatus(input: ChangeStatusBatchInput, principal: Principal) {
    const request = batchRequest({ ...input }, STATUS_BATCH_ENTITIES, MAX_SYNC_BATCH);
    return this.operations.changeStatus(
      principal,
      request,
      statusSpec({ ...input }),
      workspaceOf(input),
    );
  }

  @Action({
    method: 'POST',
    path: '/change_status_batch_async',
    summary: 'Sets the status of up to 10 000 records in the background.',
    description:
      'Checked at once like `/change_status_batch` (same errors), then run in the background: answers the queued batch job (`GET /batch_jobs/{id}`); the caller gets a notification (tag `change_status_batch`) when it is done or failed.',
    input: ChangeStatusBatchAsyncInput,
    output: { item: BatchJob },
    access: 'workspace:write',
    workspace: batchWorkspaces,
  })
  changeStatusAsync(input: ChangeStatusBatchAsyncInput, principal: Principal) {
    const request = batchRequest({ ...input }, STATUS_BATCH_ENTITIES, MAX_ASYNC_BATCH);
    return this.jobs.queueChangeStatus(
      principal,
      request,
      statusSpec({ ...input }),
      workspaceOf(input),
    );
  }

  @Action({
    method: 'POST',
    path: '/delete_records_batch',
    summary: 'Deletes up to 1000 shipments, orders, order items or shipment items.',
    description:
      'Deletes every named record through its own DELETE rules, or none. Answers `{entity, count, ids}`.',
    input: DeleteRecordsBatchInput,
    output: { json: DeleteRecordsBatchResult },
    access: 'workspace:write',
    workspace: batchWorkspaces,
  })
  deleteRecords(input: DeleteRecordsBatchInput, principal: Principal) {
    const request = batchRequest({ ...input }, DELETE_BATCH_ENTITIES, MAX_SYNC_BATCH);
    return this.operations.deleteRecords(principal, request, workspaceOf(input));
  }
}

/** The workspace id the input limits the batch to (already resolved by the access check). */
function workspaceOf(input: { workspaceId?: string | null; workspace?: string | null }) {
  const reference = input.workspaceId?.trim() || input.workspace?.trim();
  return reference ? reference.slice(reference.lastIndexOf('/') + 1).toLowerCase() : undefined;
}
