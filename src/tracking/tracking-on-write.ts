import { Injectable, OnModuleInit } from '@nestjs/common';
import { ShipmentsService } from '../shipments/shipments.service';
import { TrackingService } from './tracking-service/tracking.service';

/**
 * Fills a shipment's tracking information when its tracking number is set, inside the
 * shipment's write transaction, so the POST/PUT response already shows trackingStatus & co.
 * when the provider answers within TRACKING_SYNC_TIMEOUT_MS; otherwise a job enqueued in that
 * same transaction tracks it within seconds.
 * - A create is tracked before its row is inserted (ShipmentsService.trackNewWith): the INSERT
 *   carries the tracking fields (without a number it only clears the refresh schedule).
 * - A PUT that changes the number starts a new journey: the old checkpoints go.
 */
@Injectable()
export class TrackingOnWrite implements OnModuleInit {
  constructor(
    private readonly shipments: ShipmentsService,
    private readonly tracking: TrackingService,
  ) {}

  onModuleInit(): void {
    this.shipments.trackNewWith((shipment, em) => this.tracking.trackNew(em, shipment));
    this.shipments.onWrite(async (event) => {
      if (event.operation !== 'put' || !event.trackingNumberChanged) return;
      await this.tracking.trackInTransaction(event.em, event.shipment.id, { newJourney: true });
    });
  }
}
