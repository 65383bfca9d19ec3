import { Injectable, OnModuleInit } from '@nestjs/common';
import type { SqlRunner } from '../database/query';
import { typeError } from '../hydra/write/denormalizer';
import {
  PropertyValidationContext,
  PropertyValidation,
  PropertyValidators,
} from '../hydra/write/property-validators';
import {
  CUSTOM_FIELD_ENTITIES,
  CustomFieldDefinition,
  validateCustomFieldValues,
} from './custom-field-values';
import { CustomFieldValuesStore } from './custom-field-values-store';
import { FieldStore } from './field-store';

export const CUSTOM_FIELDS_VALIDATOR = 'customFields';

/**
 * Checks the `customFields` of orders and shipments against the workspace's definitions.
 *
 * To enable custom field values on a resource (orders, shipments), declare on its entity:
 *
 *   @ApiProperty({ writable: ['post', 'put'], type: 'object', validatedBy: 'customFields' })
 *   @Column('jsonb', { default: () => "'{}'::jsonb" })
 *   customFields: Record<string, unknown>;
 *
 * (the column exists: migration CustomFields1763840200000). The write pipeline then calls
 * this validator in the write's transaction: unknown codes, wrong values for the field type,
 * `required` rules and read-only fields are 422 violations under `customFields.<code>`; the
 * stored object keeps known codes only, with defaults applied on POST. Other code can call
 * `validate()` directly.
 */
@Injectable()
export class CustomFieldValuesService implements OnModuleInit {
  constructor(
    private readonly validators: PropertyValidators,
    private readonly fields: FieldStore,
    private readonly values: CustomFieldValuesStore,
  ) {}

  onModuleInit(): void {
    this.validators.register(CUSTOM_FIELDS_VALIDATOR, (value, ctx) =>
      this.validateProperty(value, ctx),
    );
  }

  definitions(
    runner: SqlRunner,
    workspaceId: string,
    entity: string,
  ): Promise<CustomFieldDefinition[]> {
    return this.fields.definitions(runner, workspaceId, entity);
  }

  async validate(
    em: SqlRunner,
    input: {
      workspaceId: string;
      entity: string;
      values: Record<string, unknown>;
      previous?: Record<string, unknown> | null;
      operation: 'post' | 'put';
    },
  ) {
    return validateCustomFieldValues({
      definitions: await this.definitions(em, input.workspaceId, input.entity),
      values: input.values,
      previous: input.previous,
      operation: input.operation,
    });
  }

  private async validateProperty(
    value: unknown,
    ctx: PropertyValidationContext,
  ): Promise<PropertyValidation> {
    const entity = ctx.resource.path.slice(1);
    if (!(CUSTOM_FIELD_ENTITIES as readonly string[]).includes(entity))
      throw new Error(`${ctx.resource.shortName} cannot carry custom fields`);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw typeError(ctx.property.name, 'array', value);
    const id = ctx.entity[ctx.resource.idProperty] as string | undefined;
    const stored =
      id && ctx.operation === 'put'
        ? await this.values.stored(ctx.em, ctx.resource, ctx.property.column!.databaseName, id)
        : undefined;
    const workspaceId = (ctx.entity.workspace?.id as string | undefined) ?? stored?.workspaceId;
    if (!workspaceId) return { violations: [] };
    return this.validate(ctx.em, {
      workspaceId,
      entity,
      values: value as Record<string, unknown>,
      previous: stored?.values ?? null,
      operation: ctx.operation as 'post' | 'put',
    });
  }
}
