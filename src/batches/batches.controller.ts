import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { HydraApi } from '../hydra/controller/hydra-api';
import { optionalWorkspace } from '../lookups/request-fields';
import { Shipment } from '../shipments/shipment.entity';
import { DELETE_BATCH_ENTITIES, STATUS_BATCH_ENTITIES } from './batch-entities';
import { BatchJob } from './batch-job.entity';
import { BatchJobs } from './batch-jobs';
import { BatchOperations } from './batch-operations';
import { MAX_ASYNC_BATCH, MAX_SYNC_BATCH, batchRequest, statusSpec } from './batch-request';
import { ShipmentMerge, mergeRequest } from './shipment-merge';

/**
 * Batch actions (the reference's request bodies; ids may be ids or IRIs):
 *
 * - `POST /change_status_batch` `{"entity": "shipments"|"orders", "ids": [...],
 *   "statusId": "<status id or IRI>"}` (or `"status": "<IRI or code>"`, the code of a status
 *   of the records' workspace), optional `"workspaceId"`. Answers 200
 *   `{entity, count, ids, unchangedIds, statuses}`: what changed, and what already had the
 *   status. All or nothing: a foreign or missing id is 404, a record outside `workspaceId` or
 *   an unknown status 422, and nothing changes.
 * - `POST /change_status_batch_async`: the same, checked at once (same errors), run in the
 *   background; answers 200 with the queued batch job (`GET /batch_jobs/{id}`), and the
 *   caller gets a notification (tag `change_status_batch`) when it is done or failed.
 * - `POST /delete_records_batch` `{"entity": "shipments"|"orders"|"order_items"|
 *   "shipment_items", "ids": [...]}`: deletes all through each record's DELETE rules, or
 *   none; answers 200 `{entity, count, ids}`.
 * - `POST /shipments/merge` `{"target": <shipment>, "shipments": [<duplicates>]}`: see
 *   ShipmentMerge; answers 200 with the merged shipment.
 */
@Controller()
export class BatchesController {
  constructor(
    private readonly api: HydraApi,
    private readonly operations: BatchOperations,
    private readonly jobs: BatchJobs,
    private readonly merger: ShipmentMerge,
  ) {}

  @Post('/change_status_batch')
  @HttpCode(200)
  async changeStatus(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const request = batchRequest(body, STATUS_BATCH_ENTITIES, MAX_SYNC_BATCH);
    const spec = statusSpec(body);
    const workspaceId = await optionalWorkspace(this.api, principal, body);
    const result = await this.operations.changeStatus(principal, request, spec, workspaceId);
    this.api.responder.json(req, res, result);
  }

  @Post('/change_status_batch_async')
  @HttpCode(200)
  async changeStatusAsync(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const request = batchRequest(body, STATUS_BATCH_ENTITIES, MAX_ASYNC_BATCH);
    const spec = statusSpec(body);
    const workspaceId = await optionalWorkspace(this.api, principal, body);
    const id = await this.jobs.queueChangeStatus(principal, request, spec, workspaceId);
    const resource = this.api.resource(BatchJob);
    this.api.responder.item(req, res, resource, await this.api.data.get(resource, principal, id));
  }

  @Post('/delete_records_batch')
  @HttpCode(200)
  async deleteRecords(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const request = batchRequest(body, DELETE_BATCH_ENTITIES, MAX_SYNC_BATCH);
    const workspaceId = await optionalWorkspace(this.api, principal, body);
    const result = await this.operations.deleteRecords(principal, request, workspaceId);
    this.api.responder.json(req, res, result);
  }

  @Post('/shipments/merge')
  @HttpCode(200)
  async merge(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const request = mergeRequest(this.api.body(req));
    await this.merger.merge(principal, request);
    const resource = this.api.resource(Shipment);
    this.api.responder.item(
      req,
      res,
      resource,
      await this.api.data.get(resource, principal, request.target),
    );
  }
}
