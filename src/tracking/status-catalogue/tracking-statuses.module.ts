import { Module } from '@nestjs/common';
import { ResourceController } from '../../hydra/controller/resource-controller';
import { TrackingStatusCatalogueSync } from './tracking-status-catalogue-sync';
import { TrackingStatusEntity } from './tracking-status.entity';

/** GET /public/tracking_statuses and /public/tracking_statuses/{code}. */
export class TrackingStatusesController extends ResourceController(TrackingStatusEntity) {}

@Module({
  controllers: [TrackingStatusesController],
  providers: [TrackingStatusCatalogueSync],
})
export class TrackingStatusesModule {}
