import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ShipmentsModule } from '../shipments/shipments.module';
import { OrderIntegrationStore } from './order-integration-store';
import { Order } from './order.entity';
import { OrdersService } from './orders.service';

export class OrdersController extends ResourceController(Order, OrdersService) {}

@Module({
  imports: [ShipmentsModule],
  controllers: [OrdersController],
  providers: [OrdersService, RecordChangeEvents, OrderIntegrationStore],
  exports: [OrdersService, OrderIntegrationStore],
})
export class OrdersModule {}
