import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OrderItemsModule } from '../order-items/order-items.module';
import { OrdersModule } from '../orders/orders.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { ShipmentItem } from './shipment-item.entity';
import { ShipmentItemIntegrationStore } from './shipment-item-integration-store';
import { ShipmentItemStore } from './shipment-item-store';
import { ShipmentItemsService } from './shipment-items.service';
import { NestedShipmentItems } from './nested-shipment-items';
import { WorkflowStoresModule } from '../workflows/workflow-stores.module';

export class ShipmentItemsController extends ResourceController(
  ShipmentItem,
  ShipmentItemsService,
) {}

@Module({
  imports: [ShipmentsModule, OrdersModule, OrderItemsModule, WorkflowStoresModule],
  controllers: [ShipmentItemsController],
  providers: [
    ShipmentItemsService,
    ShipmentItemStore,
    RecordChangeEvents,
    ShipmentItemIntegrationStore,
    // Writes the items a shipment's POST or PUT gives as objects (a shipment write extension).
    NestedShipmentItems,
  ],
  exports: [ShipmentItemsService, ShipmentItemStore, ShipmentItemIntegrationStore],
})
export class ShipmentItemsModule {}
