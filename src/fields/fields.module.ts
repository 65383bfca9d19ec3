import { Module } from '@nestjs/common';
import { CustomFieldValuesService } from './custom-field-values.service';
import { CustomFieldValuesStore } from './custom-field-values-store';
import { FieldStore } from './field-store';
import { FieldsLayoutStore } from './fields-layout-store';
import { FieldsLayoutsController } from './fields-layouts.controller';
import { FieldsLayoutsService } from './fields-layouts.service';
import { FieldsController } from './fields.controller';
import { FieldsService } from './fields.service';

@Module({
  controllers: [FieldsController, FieldsLayoutsController],
  providers: [
    FieldsService,
    FieldsLayoutsService,
    CustomFieldValuesService,
    FieldStore,
    FieldsLayoutStore,
    CustomFieldValuesStore,
  ],
  exports: [FieldsService, FieldsLayoutsService, CustomFieldValuesService],
})
export class FieldsModule {}
