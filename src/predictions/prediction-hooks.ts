import { Injectable, OnModuleInit } from '@nestjs/common';
import { ShipmentsService } from '../shipments/shipments.service';
import { Clock } from '../tracking/clock';
import { TrackingService } from '../tracking/tracking-service/tracking.service';
import { PredictionWriter } from './prediction-writer';

/**
 * Where predictions plug into writes, in their transactions: a shipment's create or PUT (once
 * its row and the tracking filled in on create exist) and every applied tracking batch (a
 * refresh, a check, pushed checkpoints). The only wiring of this module into shipments and
 * tracking; the rules are in PredictionWriter.
 */
@Injectable()
export class PredictionHooks implements OnModuleInit {
  constructor(
    private readonly shipments: ShipmentsService,
    private readonly tracking: TrackingService,
    private readonly writer: PredictionWriter,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.shipments.onWrite(async (event) => {
      const changed = await this.writer.refresh(event.em, [event.shipment.id], this.clock.now());
      // shipment.created / updated then read the row again, prediction included.
      if (changed > 0 || event.operation === 'post') event.rowChanged();
    });
    this.tracking.onApplied(async (em, outcomes, now) => {
      const ids = outcomes.filter((o) => o.applied).map((o) => o.shipmentId);
      if (ids.length > 0) await this.writer.refresh(em, ids, now);
    });
  }
}
