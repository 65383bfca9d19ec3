import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../access/principal';
import { DataProvider } from '../collection/data-provider';
import { BadRequestError, Violation } from '../../common/errors/api-errors';
import type { WriteOperation } from '../core/declaration';
import type { PropertyMeta, ResourceMeta } from '../core/resource-meta';
import { ResourceRegistry } from '../metadata/resource-registry';
import { asObjectInput } from '../validation/empty-map';
import type { NestedElement } from '../core/resource-hooks';

export interface DenormalizeResult {
  /** Reference problems (missing or foreign IRIs), reported as 422. */
  violations: Violation[];
  /** Objects given where the resource accepts them instead of an IRI; the service handles them. */
  nested: Record<string, Record<string, unknown> | null>;
  /**
   * Objects given as elements of a to-many property that accepts them (`acceptObjectOn`), with
   * their index: the service creates them, or changes the one named by `@id` (resolved and
   * kept in the entity's list like an IRI).
   */
  nestedElements: Record<string, NestedElement[]>;
}

export interface DenormalizeOptions {
  /**
   * References whose rows the resource's hooks read in a statement of their own, reporting
   * a missing one (ResourceHooks.checksReferences): resolved from the principal's tenancy
   * alone when that decides it, without a statement here.
   */
  existenceCheckedBy?: ReadonlySet<string>;
}

/** The violation of a reference to a row that is missing or outside the caller's tenancy. */
export function referenceNotFound(path: string, iri: string): Violation {
  return { propertyPath: path, message: `Item not found for "${iri}".`, code: null };
}

const PHP_TYPE: Record<string, string> = {
  integer: 'int',
  number: 'float',
  decimal: 'string',
  boolean: 'bool',
  string: 'string',
  array: 'array',
  object: 'array',
  datetime: 'string',
};

export function phpTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    default:
      return 'array';
  }
}

export function typeError(attribute: string, expected: string, value: unknown): BadRequestError {
  return new BadRequestError(
    `The type of the "${attribute}" attribute must be "${expected}", "${phpTypeOf(value)}" given.`,
  );
}

/**
 * Applies a request body to an entity: only the properties the operation may
 * write, type-checked (400 with API Platform's message), references resolved
 * within the caller's tenancy. Unknown and read-only attributes are ignored.
 */
@Injectable()
export class Denormalizer {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
  ) {}

  async apply(
    resource: ResourceMeta,
    entity: Record<string, any>,
    body: unknown,
    operation: WriteOperation,
    principal: Principal | null,
    /** The write's transaction: references are resolved on its connection. */
    em?: EntityManager,
    options: DenormalizeOptions = {},
  ): Promise<DenormalizeResult> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new BadRequestError('The input data must be an object.');
    }
    const input = body as Record<string, unknown>;
    const result: DenormalizeResult = { violations: [], nested: {}, nestedElements: {} };
    for (const prop of resource.properties) {
      if (!prop.writable.has(operation) || !Object.prototype.hasOwnProperty.call(input, prop.name))
        continue;
      const value =
        prop.kind === 'collection' ? input[prop.name] : this.objectInput(prop, input[prop.name]);
      switch (prop.kind) {
        case 'column':
          entity[prop.name] = this.scalar(prop, prop.name, value);
          break;
        case 'embedded':
          this.embedded(prop, entity, value);
          break;
        case 'reference':
          await this.reference(prop, entity, value, operation, principal, result, em, options);
          break;
        case 'object':
          if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
            if (typeof value === 'string' && this.registry.parseIri(value)) {
              await this.reference(prop, entity, value, operation, principal, result, em);
              break;
            }
            throw typeError(prop.name, 'array', value);
          }
          result.nested[prop.name] = value as Record<string, unknown> | null;
          break;
        case 'collection':
          await this.collection(prop, entity, value, operation, principal, result, em);
          break;
      }
    }
    return result;
  }

  /** `[]` for a property holding an object (embedded, nested or a map column) is `{}`. */
  private objectInput(prop: PropertyMeta, value: unknown): unknown {
    const holdsObject =
      prop.kind === 'embedded' ||
      prop.kind === 'object' ||
      (prop.kind === 'column' && prop.type === 'object');
    return holdsObject ? asObjectInput(value) : value;
  }

  scalar(prop: PropertyMeta, attribute: string, value: unknown): unknown {
    if (value === null) {
      if (prop.nullable) return null;
      throw typeError(attribute, PHP_TYPE[prop.type] ?? 'string', value);
    }
    switch (prop.type) {
      case 'string':
        if (typeof value !== 'string') throw typeError(attribute, 'string', value);
        return value;
      case 'integer':
        if (typeof value !== 'number' || !Number.isInteger(value))
          throw typeError(attribute, 'int', value);
        if (!Number.isSafeInteger(value) || Math.abs(value) > 2147483647)
          throw new BadRequestError(`The value of the "${attribute}" attribute is out of range.`);
        return value;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw typeError(attribute, 'float', value);
        return value;
      case 'decimal':
        if (typeof value === 'number' && Number.isFinite(value)) return String(value);
        if (typeof value !== 'string' || !/^-?\d{1,13}(\.\d{1,4})?$/.test(value.trim()))
          throw typeError(attribute, 'string', value);
        return value.trim();
      case 'boolean':
        if (typeof value !== 'boolean') throw typeError(attribute, 'bool', value);
        return value;
      case 'datetime': {
        const date = typeof value === 'string' ? new Date(value) : null;
        // Years of four digits: what RFC 3339 (and the records' date-time format) can write.
        const year = date?.getUTCFullYear() ?? NaN;
        if (!date || Number.isNaN(date.getTime()) || year < 1 || year > 9999) {
          throw new BadRequestError(
            `The "${attribute}" attribute must be a valid date-time string (ISO 8601).`,
          );
        }
        return date;
      }
      case 'array':
        if (!Array.isArray(value)) throw typeError(attribute, 'array', value);
        if (prop.items === 'string' && value.some((v) => typeof v !== 'string')) {
          const bad = value.find((v) => typeof v !== 'string');
          throw typeError(`${attribute}[]`, 'string', bad);
        }
        return value;
      case 'object':
        if (typeof value !== 'object' || Array.isArray(value))
          throw typeError(attribute, 'array', value);
        return value;
    }
  }

  private embedded(prop: PropertyMeta, entity: Record<string, any>, value: unknown): void {
    const Type = prop.embeddedType as new () => Record<string, unknown>;
    if (value === null) {
      const empty = new Type();
      for (const child of prop.children!) empty[child.name] = null;
      entity[prop.name] = empty;
      return;
    }
    if (typeof value !== 'object' || Array.isArray(value))
      throw typeError(prop.name, 'array', value);
    const target = entity[prop.name] ?? new Type();
    const input = value as Record<string, unknown>;
    for (const child of prop.children!) {
      if (!Object.prototype.hasOwnProperty.call(input, child.name)) continue;
      target[child.name] = this.scalar(
        { ...child, nullable: true },
        `${prop.name}.${child.name}`,
        input[child.name],
      );
    }
    entity[prop.name] = target;
  }

  private async reference(
    prop: PropertyMeta,
    entity: Record<string, any>,
    value: unknown,
    operation: WriteOperation,
    principal: Principal | null,
    result: DenormalizeResult,
    em?: EntityManager,
    options: DenormalizeOptions = {},
  ): Promise<void> {
    if (value === null) {
      entity[prop.name] = null;
      return;
    }
    if (typeof value === 'object' && !Array.isArray(value)) {
      if (prop.options.acceptObjectOn?.includes(operation)) {
        result.nested[prop.name] = value as Record<string, unknown>;
        return;
      }
      throw new BadRequestError(
        `Nested documents for attribute "${prop.name}" are not allowed. Use IRIs instead.`,
      );
    }
    if (typeof value !== 'string') throw typeError(prop.name, 'string', value);
    const id = await this.resolve(
      prop,
      value,
      principal,
      result,
      prop.name,
      em,
      options.existenceCheckedBy?.has(prop.name),
    );
    if (id) entity[prop.name] = { id };
  }

  private async collection(
    prop: PropertyMeta,
    entity: Record<string, any>,
    value: unknown,
    operation: WriteOperation,
    principal: Principal | null,
    result: DenormalizeResult,
    em?: EntityManager,
  ): Promise<void> {
    if (!Array.isArray(value)) throw typeError(prop.name, 'array', value);
    const ids: Array<{ id: string }> = [];
    const elements: NestedElement[] = [];
    for (const [i, item] of value.entries()) {
      if (typeof item !== 'string') {
        if (
          item !== null &&
          typeof item === 'object' &&
          !Array.isArray(item) &&
          prop.options.acceptObjectOn?.includes(operation)
        ) {
          const element = await this.element(prop, i, item, principal, result, em);
          if (element.id) ids.push({ id: element.id });
          elements.push(element);
          continue;
        }
        if (item !== null && typeof item === 'object') {
          throw new BadRequestError(
            `Nested documents for attribute "${prop.name}" are not allowed. Use IRIs instead.`,
          );
        }
        throw typeError(`${prop.name}[${i}]`, 'string', item);
      }
      const id = await this.resolve(prop, item, principal, result, `${prop.name}[${i}]`, em);
      if (id) ids.push({ id });
    }
    entity[prop.name] = ids;
    if (elements.length) result.nestedElements[prop.name] = elements;
  }

  /** An object element of a to-many property; its `@id`, when given, names an existing record. */
  private async element(
    prop: PropertyMeta,
    index: number,
    item: Record<string, unknown>,
    principal: Principal | null,
    result: DenormalizeResult,
    em?: EntityManager,
  ): Promise<NestedElement> {
    const { '@id': iri, ...value } = item;
    if (iri === undefined || iri === null) return { index, value };
    const path = `${prop.name}[${index}]`;
    if (typeof iri !== 'string') throw typeError(`${path}.@id`, 'string', iri);
    const id = await this.resolve(prop, iri, principal, result, path, em);
    return id ? { index, id, value } : { index, value: {} };
  }

  /**
   * IRI -> id of a record the caller may see; anything else is a violation naming the
   * property. `existenceChecked`: the hooks read the row themselves, so the tenancy is enough
   * when it is decided by the id alone (the caller's own workspace, say).
   */
  private async resolve(
    prop: PropertyMeta,
    iri: string,
    principal: Principal | null,
    result: DenormalizeResult,
    path: string,
    em?: EntityManager,
    existenceChecked = false,
  ): Promise<string | null> {
    const target = this.registry.get(prop.target!);
    const parsed = this.registry.parseIri(iri);
    if (!parsed || parsed.resource !== target) {
      throw new BadRequestError(`Invalid IRI "${iri}".`);
    }
    const id = await this.data.resolveReference(target, principal, parsed.id, em, {
      existenceChecked,
    });
    if (!id) {
      result.violations.push(referenceNotFound(path, iri));
      return null;
    }
    return id;
  }
}
