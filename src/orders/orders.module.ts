import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ShipmentsModule } from '../shipments/shipments.module';
import { OrderIntegrationStore } from './order-integration-store';
import { StatusStoreModule } from '../statuses/status-store.module';
import { Order } from './order.entity';
import { OrderStore } from './order-store';
import { OrderUpdatesAtEnd } from './order-updates-at-end';
import { OrdersService } from './orders.service';

export class OrdersController extends ResourceController(Order, OrdersService) {}

@Module({
  imports: [ShipmentsModule, StatusStoreModule],
  controllers: [OrdersController],
  providers: [
    OrdersService,
    OrderStore,
    RecordChangeEvents,
    OrderIntegrationStore,
    OrderUpdatesAtEnd,
  ],
  exports: [OrdersService, OrderStore, OrderIntegrationStore, OrderUpdatesAtEnd],
})
export class OrdersModule {}
