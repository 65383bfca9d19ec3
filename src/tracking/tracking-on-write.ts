import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ExtendsShipmentWrites,
  type NewShipment,
  type NewShipmentTracking,
  type ShipmentWriteEvent,
  type ShipmentWriteExtension,
} from '../shipments/shipment-write-extensions';
import { TrackingService } from './tracking-service/tracking.service';

/**
 * Fills a shipment's tracking information when its tracking number is set, inside the
 * shipment's write transaction, so the POST/PUT response already shows trackingStatus & co.
 * when the provider answers within TRACKING_SYNC_TIMEOUT_MS; otherwise a job enqueued in that
 * same transaction tracks it within seconds. A shipment write extension:
 * - A create is tracked before its row is inserted (trackNew): the INSERT carries the
 *   tracking fields (without a number it only clears the refresh schedule).
 * - A PUT that changes the number starts a new journey: the old checkpoints go.
 */
@Injectable()
@ExtendsShipmentWrites()
export class TrackingOnWrite implements ShipmentWriteExtension {
  constructor(private readonly tracking: TrackingService) {}

  trackNew(shipment: NewShipment, em: EntityManager): Promise<NewShipmentTracking> {
    return this.tracking.trackNew(em, shipment);
  }

  async afterWrite(event: ShipmentWriteEvent): Promise<void> {
    if (event.operation !== 'put' || !event.trackingNumberChanged) return;
    await this.tracking.trackInTransaction(event.em, event.shipment.id, { newJourney: true });
  }
}
