import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { CarrierCatalogueSync } from './carrier-catalogue-sync';
import { CarrierPageStore } from './carrier-page-store';
import { CarrierEntity } from './carrier.entity';

/** GET /public/carriers and /public/carriers/{code}: public, paginated, JSON-LD. */
export class CarriersController extends ResourceController(CarrierEntity) {}

@Module({
  controllers: [CarriersController],
  providers: [CarrierCatalogueSync, CarrierPageStore],
  exports: [CarrierCatalogueSync, CarrierPageStore],
})
export class CarriersModule {}
