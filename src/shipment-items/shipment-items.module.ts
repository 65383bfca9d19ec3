import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ShipmentsModule } from '../shipments/shipments.module';
import { ShipmentItem } from './shipment-item.entity';
import { ShipmentItemIntegrationStore } from './shipment-item-integration-store';
import { ShipmentItemsService } from './shipment-items.service';

export class ShipmentItemsController extends ResourceController(
  ShipmentItem,
  ShipmentItemsService,
) {}

@Module({
  imports: [ShipmentsModule],
  controllers: [ShipmentItemsController],
  providers: [ShipmentItemsService, RecordChangeEvents, ShipmentItemIntegrationStore],
  exports: [ShipmentItemsService, ShipmentItemIntegrationStore],
})
export class ShipmentItemsModule {}
