import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ShipmentsModule } from '../shipments/shipments.module';
import { OrderItemIntegrationStore } from './order-item-integration-store';
import { OrderItem } from './order-item.entity';
import { OrderItemsService } from './order-items.service';

export class OrderItemsController extends ResourceController(OrderItem, OrderItemsService) {}

@Module({
  imports: [ShipmentsModule],
  controllers: [OrderItemsController],
  providers: [OrderItemsService, RecordChangeEvents, OrderItemIntegrationStore],
  exports: [OrderItemsService, OrderItemIntegrationStore],
})
export class OrderItemsModule {}
