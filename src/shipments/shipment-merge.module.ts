import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { NotesModule } from '../notes/notes.module';
import { OrdersModule } from '../orders/orders.module';
import { ShipmentItemsModule } from '../shipment-items/shipment-items.module';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { ShipmentMerge } from './shipment-merge';
import { ShipmentMergeController } from './shipment-merge.controller';
import { ShipmentMergeStore } from './shipment-merge-store';
import { ShipmentsModule } from './shipments.module';

/**
 * POST /shipments/merge. A module of its own: the merge moves what other modules own to the
 * target (items, notes, tracking page links, reviews, orders), through their stores, which
 * ShipmentsModule itself does not import.
 */
@Module({
  imports: [ShipmentsModule, ShipmentItemsModule, OrdersModule, NotesModule, TrackingPagesModule],
  controllers: [ShipmentMergeController],
  providers: [ShipmentMerge, ShipmentMergeStore, RecordChangeEvents],
})
export class ShipmentMergeModule {}
