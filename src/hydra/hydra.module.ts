import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AccessTargets } from './collection/access-targets';
import { HydraInterceptor } from './actions/hydra.interceptor';
import { DataProvider } from './collection/data-provider';
import { MaintainedCountSweeper } from './collection/maintained-count-sweeper';
import { HydraApi } from './controller/hydra-api';
import { HydraDocsController } from './docs/docs.controller';
import { MultipartReader } from './serialization/multipart-reader';
import { ResourceRegistry } from './metadata/resource-registry';
import { Responder } from './actions/responder';
import { Denormalizer } from './write/denormalizer';
import { PropertyValidators } from './write/property-validators';
import { ResourceWriter } from './write/resource-writer';
import { WriteRules } from './write/write-rules';

/** The API-Platform-like layer: every resource module imports nothing else to be served. */
@Global()
@Module({
  controllers: [HydraDocsController],
  providers: [
    MultipartReader,
    ResourceRegistry,
    DataProvider,
    MaintainedCountSweeper,
    Denormalizer,
    PropertyValidators,
    WriteRules,
    ResourceWriter,
    Responder,
    HydraApi,
    AccessTargets,
    { provide: APP_INTERCEPTOR, useClass: HydraInterceptor },
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
    AccessTargets,
  ],
})
export class HydraModule {}
