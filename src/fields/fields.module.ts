import { Module } from '@nestjs/common';
import { CustomFieldValuesService } from './custom-field-values.service';
import { FieldsLayoutsController } from './fields-layouts.controller';
import { FieldsLayoutsService } from './fields-layouts.service';
import { FieldsController } from './fields.controller';
import { FieldsService } from './fields.service';

@Module({
  controllers: [FieldsController, FieldsLayoutsController],
  providers: [FieldsService, FieldsLayoutsService, CustomFieldValuesService],
  exports: [FieldsService, FieldsLayoutsService, CustomFieldValuesService],
})
export class FieldsModule {}
