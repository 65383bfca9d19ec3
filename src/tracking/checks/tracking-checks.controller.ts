import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../../access/access.decorator';
import type { Request, Response } from 'express';
import type { Principal } from '../../access/principal';
import { HydraApi } from '../../hydra/controller/hydra-api';
import { ValidationError, ViolationCodes } from '../../hydra/errors/api-errors';
import { typeError } from '../../hydra/write/denormalizer';
import { Shipment } from '../../shipments/shipment.entity';
import { TrackingChecks } from './tracking-checks';
import { ShipmentLookup, stringArray } from './shipment-lookup';

/** Shipments one synchronous check may name; the async form takes more. */
export const MAX_SYNC_CHECK = 100;
export const MAX_ASYNC_CHECK = 5000;

/**
 * POST /check_tracking_numbers and /check_tracking_numbers_async.
 *
 * Body (one of):
 * - `{"ids": ["<shipment id or IRI>", ...]}`
 * - `{"workspaceId": "<workspace id or IRI>", "trackingNumbers": ["<number>" | {"number": "..."}, ...]}`
 *   (the reference's request; `workspace` is accepted for `workspaceId`).
 *
 * The synchronous form re-tracks the shipments now and answers 200 with the shipment (one) or
 * a collection of them (several). The asynchronous form answers 200 at once with the shipments
 * queued, re-tracks them in a durable job, and tells the caller with a notification
 * (tag `check_tracking_numbers`, `data` = the shipment IRIs).
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class TrackingChecksController {
  constructor(
    private readonly api: HydraApi,
    private readonly lookup: ShipmentLookup,
    private readonly checks: TrackingChecks,
  ) {}

  @Post('/check_tracking_numbers')
  @HttpCode(200)
  async check(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const ids = await this.shipmentIds(principal, this.api.body(req), MAX_SYNC_CHECK);
    await this.checks.checkNow(ids);
    const resource = this.api.resource(Shipment);
    const records = [];
    for (const id of ids) records.push(await this.api.data.get(resource, principal, id));
    if (records.length === 1) {
      this.api.responder.item(req, res, resource, records[0]);
      return;
    }
    this.api.responder.collection(req, res, resource, {
      members: records,
      totalItems: records.length,
      pagination: { page: 1, itemsPerPage: records.length, offset: 0 },
    });
  }

  @Post('/check_tracking_numbers_async')
  @HttpCode(200)
  async checkAsync(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const ids = await this.shipmentIds(principal, this.api.body(req), MAX_ASYNC_CHECK);
    const jobId = await this.checks.checkLater(principal.userId, ids);
    this.api.responder.json(req, res, {
      queued: true,
      job: jobId,
      shipments: ids.map((id) => `/shipments/${id}`),
    });
  }

  private async shipmentIds(
    principal: Principal,
    body: Record<string, unknown>,
    max: number,
  ): Promise<string[]> {
    const hasIds = body.ids !== undefined && body.ids !== null;
    const hasNumbers = body.trackingNumbers !== undefined && body.trackingNumbers !== null;
    if (hasIds === hasNumbers) {
      throw ValidationError.of(
        hasIds ? 'ids' : 'trackingNumbers',
        hasIds
          ? 'Give either ids or trackingNumbers, not both.'
          : 'Give the shipments to check: ids, or trackingNumbers with workspaceId.',
        ViolationCodes.notBlank,
      );
    }
    const attribute = hasIds ? 'ids' : 'trackingNumbers';
    const given = hasIds
      ? stringArray(body.ids, 'ids')
      : numbersOf(body.trackingNumbers, 'trackingNumbers');
    if (given.length === 0) {
      throw ValidationError.of(attribute, 'This collection should contain 1 element or more.');
    }
    if (given.length > max) {
      throw ValidationError.of(
        attribute,
        `This collection should contain ${max} elements or less.`,
      );
    }
    if (hasIds) return this.lookup.byReferences(principal, given, 'ids');
    const workspaceRef = body.workspaceId ?? body.workspace;
    if (workspaceRef === undefined || workspaceRef === null) {
      throw ValidationError.of(
        'workspaceId',
        'This value should not be blank.',
        ViolationCodes.notBlank,
      );
    }
    const workspaceId = await this.lookup.workspaceId(principal, workspaceRef, 'workspaceId');
    return this.lookup.byTrackingNumbers(workspaceId, given, 'trackingNumbers');
  }
}

/** `["n1", {"number": "n2", "originCarrier": "ups"}]` -> `["n1", "n2"]`. */
function numbersOf(value: unknown, attribute: string): string[] {
  if (!Array.isArray(value)) throw typeError(attribute, 'array', value);
  return value.map((v, i) => {
    if (typeof v === 'string') return v;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const number = (v as Record<string, unknown>).number;
      if (typeof number !== 'string')
        throw typeError(`${attribute}[${i}].number`, 'string', number);
      return number;
    }
    throw typeError(`${attribute}[${i}]`, 'string', v);
  });
}
