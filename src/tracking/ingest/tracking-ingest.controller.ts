import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { HydraApi } from '../../hydra/controller/hydra-api';
import { NotFoundError, ValidationError, ViolationCodes } from '../../hydra/errors/api-errors';
import { typeError } from '../../hydra/write/denormalizer';
import { Shipment } from '../../shipments/shipment.entity';
import { ShipmentLookup } from '../checks/shipment-lookup';
import { TrackingService } from '../tracking-service/tracking.service';
import { parsePushedCheckpoints } from './pushed-checkpoints';

/**
 * POST /tracking/ingest: a carrier or aggregator pushes checkpoints of one shipment.
 *
 * Authentication: the ordinary bearer token of a user (an integration's API client) who can
 * see the shipment's workspace; a shipment of another tenant is 404. (Bearer tokens already
 * exist for every client, expire, and are revocable; a second per-workspace HMAC secret
 * would add key management without adding safety.)
 *
 * Body: the shipment as `shipment` (IRI or id), or `trackingNumber` + `workspace` (IRI or
 * id); and `checkpoints` (see pushed-checkpoints.ts). Idempotent: a checkpoint id pushed again
 * updates that checkpoint. The shipment is then recomputed like a refresh (status, counters,
 * next check, outbox event on a status change) in the same transaction; the answer is the
 * updated shipment (200).
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class TrackingIngestController {
  constructor(
    private readonly api: HydraApi,
    private readonly lookup: ShipmentLookup,
    private readonly tracking: TrackingService,
    private readonly dataSource: DataSource,
  ) {}

  @Post('/tracking/ingest')
  @HttpCode(200)
  async ingest(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    let shipmentId: string;
    if (body.shipment !== undefined && body.shipment !== null) {
      if (typeof body.shipment !== 'string') throw typeError('shipment', 'string', body.shipment);
      [shipmentId] = await this.lookup.byReferences(principal, [body.shipment], 'shipment');
    } else if (body.trackingNumber !== undefined && body.trackingNumber !== null) {
      if (typeof body.trackingNumber !== 'string')
        throw typeError('trackingNumber', 'string', body.trackingNumber);
      if (body.workspace === undefined || body.workspace === null) {
        throw ValidationError.of(
          'workspace',
          'This value should not be blank.',
          ViolationCodes.notBlank,
        );
      }
      const workspaceId = await this.lookup.workspaceId(principal, body.workspace, 'workspace');
      const [row] = await this.dataSource.query(
        `SELECT id FROM shipment WHERE workspace_id = $1 AND tracking_number = $2`,
        [workspaceId, body.trackingNumber.trim()],
      );
      if (!row) throw new NotFoundError();
      shipmentId = row.id;
    } else {
      throw ValidationError.of(
        'shipment',
        'This value should not be blank: give shipment, or trackingNumber and workspace.',
        ViolationCodes.notBlank,
      );
    }
    const [{ origin_carrier: carrier }] = await this.dataSource.query(
      `SELECT origin_carrier FROM shipment WHERE id = $1`,
      [shipmentId],
    );
    const parsed = parsePushedCheckpoints(body.checkpoints, carrier ?? 'unknown');
    if (parsed.violations.length > 0) throw new ValidationError(parsed.violations);
    await this.dataSource.transaction((em) =>
      this.tracking.ingest(em, shipmentId, parsed.checkpoints),
    );
    const resource = this.api.resource(Shipment);
    this.api.responder.item(
      req,
      res,
      resource,
      await this.api.data.get(resource, principal, shipmentId),
    );
  }
}
