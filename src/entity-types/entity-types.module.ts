import { Module } from '@nestjs/common';
import { FieldsModule } from '../fields/fields.module';
import { EntityTypesController } from './entity-types.controller';
import { EntityTypesService } from './entity-types.service';

@Module({
  imports: [FieldsModule],
  controllers: [EntityTypesController],
  providers: [EntityTypesService],
})
export class EntityTypesModule {}
