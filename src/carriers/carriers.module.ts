import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { CarrierCatalogueSync } from './carrier-catalogue-sync';
import { CarrierEntity } from './carrier.entity';

/** GET /public/carriers and /public/carriers/{code}: public, paginated, JSON-LD. */
export class CarriersController extends ResourceController(CarrierEntity) {}

@Module({
  controllers: [CarriersController],
  providers: [CarrierCatalogueSync],
  exports: [CarrierCatalogueSync],
})
export class CarriersModule {}
