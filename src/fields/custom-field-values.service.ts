import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { quoteIdent } from '../hydra/core/sql-query';
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
  constructor(private readonly validators: PropertyValidators) {}

  onModuleInit(): void {
    this.validators.register(CUSTOM_FIELDS_VALIDATOR, (value, ctx) =>
      this.validateProperty(value, ctx),
    );
  }

  async definitions(
    em: EntityManager,
    workspaceId: string,
    entity: string,
  ): Promise<CustomFieldDefinition[]> {
    const rows = await em.query(
      `SELECT code, field_type, readonly, validation, select_options, options, default_value
         FROM field WHERE workspace_id = $1 AND entity = $2 ORDER BY created_at, id`,
      [workspaceId, entity],
    );
    return rows.map((r: Record<string, any>) => ({
      code: r.code,
      fieldType: r.field_type,
      readonly: r.readonly,
      validation: r.validation,
      selectOptions: r.select_options,
      options: r.options,
      default: r.default_value,
    }));
  }

  async validate(
    em: EntityManager,
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
    const table = quoteIdent(ctx.resource.table);
    const column = quoteIdent(ctx.property.column!.databaseName);
    const id = ctx.entity[ctx.resource.idProperty] as string | undefined;
    const stored =
      id && ctx.operation === 'put'
        ? (
            await ctx.em.query(`SELECT workspace_id, ${column} AS v FROM ${table} WHERE id = $1`, [
              id,
            ])
          )[0]
        : undefined;
    const workspaceId = (ctx.entity.workspace?.id as string | undefined) ?? stored?.workspace_id;
    if (!workspaceId) return { violations: [] };
    return this.validate(ctx.em, {
      workspaceId,
      entity,
      values: value as Record<string, unknown>,
      previous: stored?.v ?? null,
      operation: ctx.operation as 'post' | 'put',
    });
  }
}
