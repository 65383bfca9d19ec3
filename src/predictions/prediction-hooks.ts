import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ExtendsShipmentWrites,
  type ShipmentWriteEvent,
  type ShipmentWriteExtension,
} from '../shipments/shipment-write-extensions';
import { Clock } from '../tracking/clock';
import {
  ExtendsTrackingApplies,
  type TrackingApplyExtension,
} from '../tracking/tracking-service/tracking-apply-extensions';
import type { TrackingOutcome } from '../tracking/tracking-service/tracking-writer';
import { PredictionWriter } from './prediction-writer';

/**
 * Where predictions plug into writes, in their transactions: a shipment's create or PUT (once
 * its row and the tracking filled in on create exist) and every applied tracking batch (a
 * refresh, a check, pushed checkpoints). The only wiring of this module into shipments and
 * tracking, as extensions both find at start-up; the rules are in PredictionWriter. Two
 * classes: Nest's discovery links a class to one discovery decorator only.
 */
@Injectable()
@ExtendsShipmentWrites()
export class PredictionOnShipmentWrite implements ShipmentWriteExtension {
  constructor(
    private readonly writer: PredictionWriter,
    private readonly clock: Clock,
  ) {}

  async afterWrite(event: ShipmentWriteEvent): Promise<void> {
    const changed = await this.writer.refresh(event.em, [event.shipment.id], this.clock.now());
    // shipment.created / updated then read the row again, prediction included.
    if (changed > 0 || event.operation === 'post') event.rowChanged();
  }
}

/** See PredictionOnShipmentWrite: the same recomputation after applied tracking batches. */
@Injectable()
@ExtendsTrackingApplies()
export class PredictionOnTrackingApply implements TrackingApplyExtension {
  constructor(private readonly writer: PredictionWriter) {}

  async afterApply(em: EntityManager, outcomes: readonly TrackingOutcome[], now: Date) {
    const ids = outcomes.filter((o) => o.applied).map((o) => o.shipmentId);
    if (ids.length > 0) await this.writer.refresh(em, ids, now);
  }
}
