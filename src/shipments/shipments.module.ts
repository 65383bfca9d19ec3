import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OrderItemStore } from '../order-items/order-item-store';
import { OrderStore } from '../orders/order-store';
import { ShipmentItemStore } from '../shipment-items/shipment-item-store';
import { StatusStoreModule } from '../statuses/status-store.module';
import { WorkflowStoresModule } from '../workflows/workflow-stores.module';
import { ShipmentEvents } from './shipment-events';
import { Shipment } from './shipment.entity';
import { ShipmentIntegrationStore } from './shipment-integration-store';
import { ShipmentBatchStore } from './shipment-batch-store';
import { ShipmentRecordsStore } from './shipment-records-store';
import { ShipmentNotificationStore } from './shipment-notification-store';
import { ShipmentPageStore } from './shipment-page-store';
import { ShipmentStore } from './shipment-store';
import { ShipmentTrackingStore } from './shipment-tracking-store';
import { ShipmentWriteExtensions } from './shipment-write-extensions';
import { ShipmentWriter } from './shipment-writer';
import { ShipmentsCreatedAtEnd } from './shipments-created-at-end';
import { ShipmentsService } from './shipments.service';

export class ShipmentsController extends ResourceController(Shipment, ShipmentsService) {}

/**
 * Shipments. Other modules extend shipment writes with providers marked
 * `@ExtendsShipmentWrites()` in their own module (tracking, shipment items, billing), found
 * through discovery (ShipmentWriteExtensions): they depend on this module, not it on them.
 */
@Module({
  imports: [DiscoveryModule, StatusStoreModule, WorkflowStoresModule],
  controllers: [ShipmentsController],
  providers: [
    ShipmentsService,
    ShipmentWriter,
    ShipmentWriteExtensions,
    ShipmentEvents,
    ShipmentsCreatedAtEnd,
    ShipmentStore,
    ShipmentTrackingStore,
    RecordChangeEvents,
    ShipmentIntegrationStore,
    ShipmentRecordsStore,
    ShipmentBatchStore,
    ShipmentPageStore,
    ShipmentNotificationStore,
    // The stores of the orders and items a shipment's write changes: their modules import
    // this one, so it cannot import them back (stateless stores, one instance more).
    OrderStore,
    OrderItemStore,
    ShipmentItemStore,
  ],
  exports: [
    ShipmentsService,
    ShipmentEvents,
    ShipmentsCreatedAtEnd,
    ShipmentIntegrationStore,
    ShipmentRecordsStore,
    ShipmentBatchStore,
    ShipmentPageStore,
    ShipmentNotificationStore,
    ShipmentTrackingStore,
  ],
})
export class ShipmentsModule {}
