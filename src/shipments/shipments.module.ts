import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ShipmentEvents } from './shipment-events';
import { Shipment } from './shipment.entity';
import { ShipmentIntegrationStore } from './shipment-integration-store';
import { ShipmentBatchStore } from './shipment-batch-store';
import { ShipmentRecordsStore } from './shipment-records-store';
import { ShipmentNotificationStore } from './shipment-notification-store';
import { ShipmentPageStore } from './shipment-page-store';
import { ShipmentStore } from './shipment-store';
import { ShipmentsService } from './shipments.service';

export class ShipmentsController extends ResourceController(Shipment, ShipmentsService) {}

@Module({
  controllers: [ShipmentsController],
  providers: [
    ShipmentsService,
    ShipmentEvents,
    ShipmentStore,
    RecordChangeEvents,
    ShipmentIntegrationStore,
    ShipmentRecordsStore,
    ShipmentBatchStore,
    ShipmentPageStore,
    ShipmentNotificationStore,
  ],
  exports: [
    ShipmentsService,
    ShipmentEvents,
    ShipmentIntegrationStore,
    ShipmentRecordsStore,
    ShipmentBatchStore,
    ShipmentPageStore,
    ShipmentNotificationStore,
  ],
})
export class ShipmentsModule {}
