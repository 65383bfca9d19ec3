import { Injectable } from '@nestjs/common';
import type { Violation } from '../../common/errors/api-errors';
import type { PropertyMeta } from '../core/resource-meta';
import type { WriteContext } from '../core/resource-hooks';

export interface PropertyValidationContext extends WriteContext {
  property: PropertyMeta;
  /** The entity being written, after denormalization and the resource's prepare hook. */
  entity: Record<string, any>;
}

export interface PropertyValidation {
  /** Reported under the property (`customFields.size`), as a 422 with the other violations. */
  violations: Violation[];
  /** When defined, replaces the property's value before it is saved (normalised form). */
  value?: unknown;
}

export type PropertyValidator = (
  value: unknown,
  ctx: PropertyValidationContext,
) => Promise<PropertyValidation> | PropertyValidation;

/**
 * Validators that need the database or another module's rules, attached to a property by
 * name: `@ApiProperty({ writable: [...], validatedBy: 'customFields' })`. The module owning
 * the rule registers it once (`validators.register('customFields', fn)` in onModuleInit); the
 * write pipeline runs it on every POST/PUT whose body carries the property, in the write's
 * transaction. A property naming an unregistered validator fails loudly, never silently.
 */
@Injectable()
export class PropertyValidators {
  private readonly validators = new Map<string, PropertyValidator>();

  register(name: string, validator: PropertyValidator): void {
    if (this.validators.has(name)) throw new Error(`Property validator ${name} registered twice`);
    this.validators.set(name, validator);
  }

  get(name: string): PropertyValidator {
    const validator = this.validators.get(name);
    if (!validator) throw new Error(`No property validator named ${name} is registered`);
    return validator;
  }

  /** Runs the validators of the properties the body sets; applies normalised values. */
  async run(entity: Record<string, any>, ctx: WriteContext): Promise<Violation[]> {
    const out: Violation[] = [];
    for (const property of ctx.resource.properties) {
      const name = property.options.validatedBy;
      if (!name || !property.writable.has(ctx.operation as 'post' | 'put')) continue;
      if (!Object.prototype.hasOwnProperty.call(ctx.body, property.name)) continue;
      const result = await this.get(name)(entity[property.name], { ...ctx, property, entity });
      out.push(...result.violations);
      if (result.value !== undefined) entity[property.name] = result.value;
    }
    return out;
  }
}
