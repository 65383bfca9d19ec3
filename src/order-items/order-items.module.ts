import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ShipmentsModule } from '../shipments/shipments.module';
import { OrderItem } from './order-item.entity';
import { OrderItemPageStore } from './order-item-page-store';
import { OrderItemsService } from './order-items.service';

export class OrderItemsController extends ResourceController(OrderItem, OrderItemsService) {}

@Module({
  imports: [ShipmentsModule],
  controllers: [OrderItemsController],
  providers: [OrderItemsService, RecordChangeEvents, OrderItemPageStore],
  exports: [OrderItemsService, OrderItemPageStore],
})
export class OrderItemsModule {}
