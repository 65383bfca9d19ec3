import { Module } from '@nestjs/common';
import { RecordChangeEvents } from '../events/record-change-events';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OrdersModule } from '../orders/orders.module';
import { ProductsModule } from '../products/products.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { OrderItemIntegrationStore } from './order-item-integration-store';
import { OrderItem } from './order-item.entity';
import { OrderItemStore } from './order-item-store';
import { OrderItemPageStore } from './order-item-page-store';
import { OrderItemsService } from './order-items.service';

export class OrderItemsController extends ResourceController(OrderItem, OrderItemsService) {}

@Module({
  imports: [ShipmentsModule, OrdersModule, ProductsModule],
  controllers: [OrderItemsController],
  providers: [
    OrderItemsService,
    OrderItemStore,
    RecordChangeEvents,
    OrderItemIntegrationStore,
    OrderItemPageStore,
  ],
  exports: [OrderItemsService, OrderItemStore, OrderItemIntegrationStore, OrderItemPageStore],
})
export class OrderItemsModule {}
