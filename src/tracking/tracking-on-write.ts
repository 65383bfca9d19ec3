import { Injectable, OnModuleInit } from '@nestjs/common';
import { ShipmentsService } from '../shipments/shipments.service';
import { TrackingService } from './tracking-service/tracking.service';

/**
 * Fills a shipment's tracking information when its tracking number is set: on create, and on
 * a PUT that changes the number (a new journey: the old checkpoints go). It runs inside the
 * shipment's write transaction (ShipmentsService.onWrite), so the POST/PUT response already
 * shows trackingStatus & co. when the provider answers within TRACKING_SYNC_TIMEOUT_MS;
 * otherwise a job enqueued in that same transaction tracks it within seconds.
 */
@Injectable()
export class TrackingOnWrite implements OnModuleInit {
  constructor(
    private readonly shipments: ShipmentsService,
    private readonly tracking: TrackingService,
  ) {}

  onModuleInit(): void {
    this.shipments.onWrite(async (event) => {
      // A create always runs (without a number it only clears the refresh schedule).
      if (!event.trackingNumberChanged && event.operation !== 'post') return;
      await this.tracking.trackInTransaction(event.em, event.shipment.id, {
        newJourney: event.operation === 'put',
      });
    });
  }
}
