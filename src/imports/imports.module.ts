import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrdersModule } from '../orders/orders.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { Import } from './import.entity';
import { ImportsController } from './imports.controller';
import { ImportStore } from './import-store';
import { ImportsService } from './imports.service';

/** GET /imports/{id}: generated from the declaration. */
export class ImportResourceController extends ResourceController(Import) {}

@Module({
  imports: [ShipmentsModule, OrdersModule, NotificationsModule],
  controllers: [ImportsController, ImportResourceController],
  providers: [ImportsService, ImportStore],
})
export class ImportsModule {}
