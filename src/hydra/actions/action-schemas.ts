import { getMetadataStorage } from 'class-validator';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getResourceOptions } from '../metadata/decorators';
import { TYPE_CONSTRAINT, declaredInputType, type InputType } from '../validation/input-types';
import type { ActionDeclaration } from './action-declaration';

type Schema = Record<string, unknown>;

const JSON_TYPES: Record<InputType, Schema> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  array: { type: 'array', items: {} },
  object: { type: 'object', additionalProperties: true },
};

const REQUIRED = new Set(['notBlank', 'notNull']);

/**
 * The JSON schema of a DTO class, read from its class-validator declarations (types, required
 * attributes, choices, lengths, nested DTOs), so the docs cannot drift from the validation.
 */
export function inputSchema(dto: Function, seen = new Set<Function>()): Schema {
  if (seen.has(dto)) return { type: 'object' };
  seen.add(dto);
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const m of metadata) {
    const schema = (properties[m.propertyName] ??= {});
    const name = m.name ?? m.type;
    if (name === TYPE_CONSTRAINT) {
      const { type, each } = declaredInputType(String(m.message));
      Object.assign(schema, each ? { type: 'array', items: JSON_TYPES[type] } : JSON_TYPES[type]);
    } else if (name === 'ofType') {
      Object.assign(schema, JSON_TYPES[m.constraints[0] as InputType]);
    } else if (REQUIRED.has(name)) {
      required.push(m.propertyName);
    } else if (name === 'choice') {
      schema.enum = [...(m.constraints[0] as unknown[])];
    } else if (name === 'maxLength') {
      schema.maxLength = Number(String(m.message).match(/(\d+)/)?.[1]);
    } else if (m.type === 'nestedValidation') {
      const nested = defaultMetadataStorage.findTypeMetadata(dto, m.propertyName);
      const target = nested?.typeFunction() as Function | undefined;
      if (target) {
        const item = inputSchema(target, seen);
        if (m.each || schema.type === 'array')
          Object.assign(schema, { type: 'array', items: item });
        else Object.assign(schema, item);
      }
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...new Set(required)] } : {}),
  };
}

/** The documented request body of an action: its DTO's schema, or the resource's. */
export function bodySchema(input: Function): Schema {
  return getResourceOptions(input) ? resourceRef(input) : inputSchema(input);
}

/** The documented success answer of an action (for @nestjs/swagger's ApiResponse). */
export function outputSchema(declaration: ActionDeclaration): {
  description: string;
  schema?: Schema;
  content?: Record<string, { schema: Schema }>;
} {
  const output = declaration.output;
  if (output === 'none') return { description: 'Done, no content.' };
  if ('html' in output)
    return {
      description: 'An HTML page.',
      content: { 'text/html': { schema: { type: 'string' } } },
    };
  if ('redirect' in output) return { description: 'A redirect (Location header).' };
  if ('item' in output) return { description: 'The resource.', schema: resourceRef(output.item) };
  if ('collection' in output)
    return {
      description: 'A page of the collection (hydra:member in JSON-LD, an array in JSON).',
      schema: {
        type: 'object',
        properties: {
          'hydra:member': { type: 'array', items: resourceRef(output.collection) },
          'hydra:totalItems': { type: 'integer', minimum: 0 },
        },
      },
    };
  return {
    description: 'The result.',
    schema: typeof output.json === 'function' ? inputSchema(output.json) : output.json,
  };
}

function resourceRef(target: Function): Schema {
  const name = getResourceOptions(target)?.shortName ?? target.name;
  return { $ref: `#/components/schemas/${name}` };
}
