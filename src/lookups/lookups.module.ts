import { Module } from '@nestjs/common';
import { LookupsController } from './lookups.controller';

/** POST /shipments/lookup and /orders/lookup. */
@Module({ controllers: [LookupsController] })
export class LookupsModule {}
