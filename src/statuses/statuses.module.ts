import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OrdersModule } from '../orders/orders.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { StatusReferencesController } from './status-references.controller';
import { StatusReferencesService } from './status-references.service';
import { StatusStoreModule } from './status-store.module';
import { Status } from './status.entity';
import { StatusesService } from './statuses.service';

export class StatusesController extends ResourceController(Status, StatusesService) {}

@Module({
  // The records that carry statuses: their stores count and move them.
  imports: [StatusStoreModule, ShipmentsModule, OrdersModule],
  // The actions first: their paths must not be taken for `/statuses/:id`.
  controllers: [StatusReferencesController, StatusesController],
  providers: [StatusesService, StatusReferencesService],
  exports: [StatusesService],
})
export class StatusesModule {}
