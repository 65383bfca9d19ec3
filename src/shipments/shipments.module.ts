import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ShipmentEvents } from './shipment-events';
import { Shipment } from './shipment.entity';
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
    ShipmentPageStore,
  ],
  exports: [ShipmentsService, ShipmentEvents, ShipmentPageStore],
})
export class ShipmentsModule {}
