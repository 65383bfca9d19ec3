import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { DataProvider } from './collection/data-provider';
import { MaintainedCountSweeper } from './collection/maintained-count-sweeper';
import { HydraApi } from './controller/hydra-api';
import { HydraDocsController } from './docs/docs.controller';
import { MultipartMiddleware } from './serialization/multipart.middleware';
import { ResourceRegistry } from './metadata/resource-registry';
import { Responder } from './serialization/responder';
import { Denormalizer } from './write/denormalizer';
import { PropertyValidators } from './write/property-validators';
import { ResourceWriter } from './write/resource-writer';
import { WriteRules } from './write/write-rules';

/** The API-Platform-like layer: every resource module imports nothing else to be served. */
@Global()
@Module({
  controllers: [HydraDocsController],
  providers: [
    ResourceRegistry,
    DataProvider,
    MaintainedCountSweeper,
    Denormalizer,
    PropertyValidators,
    WriteRules,
    ResourceWriter,
    Responder,
    HydraApi,
  ],
  exports: [
    ResourceRegistry,
    DataProvider,
    Denormalizer,
    PropertyValidators,
    WriteRules,
    ResourceWriter,
    Responder,
    HydraApi,
  ],
})
export class HydraModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(MultipartMiddleware).forRoutes('*path');
  }
}
