import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../access/principal';
import { ValidationError, ViolationCodes } from '../../common/errors/api-errors';
import { ShipmentLookup } from '../checks/shipment-lookup';
import { TrackingService } from '../tracking-service/tracking.service';
import { parsePushedCheckpoints } from './pushed-checkpoints';
import type { TrackingIngestInput } from './tracking-ingest.input';

/**
 * Checkpoints pushed by a carrier or aggregator: stored idempotently, then the shipment is
 * recomputed like a refresh (status, counters, next check, outbox event on a status change)
 * in the same transaction.
 */
@Injectable()
export class TrackingIngest {
  constructor(
    private readonly lookup: ShipmentLookup,
    private readonly tracking: TrackingService,
    private readonly dataSource: DataSource,
  ) {}

  /** Returns the shipment's id. `workspaceId`: the visible workspace `input.workspace` names. */
  async ingest(
    principal: Principal,
    input: TrackingIngestInput,
    workspaceId: string | undefined,
  ): Promise<string> {
    const shipmentId = await this.shipmentOf(principal, input, workspaceId);
    const carrier = await this.lookup.originCarrier(shipmentId);
    const parsed = parsePushedCheckpoints(input.checkpoints, carrier ?? 'unknown');
    if (parsed.violations.length > 0) throw new ValidationError(parsed.violations);
    await this.dataSource.transaction((em) =>
      this.tracking.ingest(em, shipmentId, parsed.checkpoints),
    );
    return shipmentId;
  }

  private async shipmentOf(
    principal: Principal,
    input: TrackingIngestInput,
    workspaceId: string | undefined,
  ): Promise<string> {
    if (input.shipment !== undefined && input.shipment !== null) {
      const [id] = await this.lookup.byReferences(principal, [input.shipment], 'shipment');
      return id;
    }
    if (input.trackingNumber !== undefined && input.trackingNumber !== null) {
      if (!workspaceId)
        throw ValidationError.of(
          'workspace',
          'This value should not be blank.',
          ViolationCodes.notBlank,
        );
      return this.lookup.byTrackingNumber(workspaceId, input.trackingNumber);
    }
    throw ValidationError.of(
      'shipment',
      'This value should not be blank: give shipment, or trackingNumber and workspace.',
      ViolationCodes.notBlank,
    );
  }
}
