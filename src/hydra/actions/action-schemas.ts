import { getMetadataStorage } from 'class-validator';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getResourceOptions } from '../metadata/decorators';
import { DOCUMENTED, type DocumentedAttribute } from '../validation/documented';
import { TYPE_CONSTRAINT, declaredInputType, type InputType } from '../validation/input-types';
import { MEDIA_TYPES } from '../serialization/negotiation';
import type { ActionDeclaration, AnswerKinds } from './action-declaration';

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
    } else if (name === DOCUMENTED) {
      const { required: isRequired, ...attribute } = m.constraints[0] as DocumentedAttribute;
      Object.assign(schema, attribute);
      if (isRequired) required.push(m.propertyName);
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
  if ('oneOf' in output) return oneOfSchema(declaration, output.oneOf);
  if ('html' in output)
    return {
      description: 'An HTML page.',
      content: { 'text/html': { schema: { type: 'string' } } },
    };
  if ('redirect' in output) return { description: 'A redirect (Location header).' };
  if ('file' in output)
    return {
      description: 'The file.',
      content: Object.fromEntries(
        output.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
    };
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

/** The answers of a `{ oneOf }` action: JSON (as negotiated, or plain), a page, a redirect. */
function oneOfSchema(
  declaration: ActionDeclaration,
  kinds: AnswerKinds,
): { description: string; content?: Record<string, { schema: Schema }> } {
  const content: Record<string, { schema: Schema }> = {};
  const words: string[] = [];
  if (kinds.json) {
    const schema = typeof kinds.json === 'function' ? inputSchema(kinds.json) : kinds.json;
    const types =
      declaration.formats === 'any'
        ? ['application/json']
        : (declaration.formats ?? ['jsonld', 'json'])
            .filter((f) => f === 'jsonld' || f === 'json')
            .map((f) => MEDIA_TYPES[f]);
    for (const type of types) content[type] = { schema };
    words.push('the result');
  }
  if (kinds.html) {
    content['text/html'] = { schema: { type: 'string' } };
    words.push('an HTML page');
  }
  if (kinds.redirect) words.push('a redirect (Location header)');
  const description = `${words.join(', or ')}, as the request asks.`;
  return {
    description: description[0].toUpperCase() + description.slice(1),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/**
 * The query parameters of a GET/DELETE action, from its input DTO: name, type, whether
 * required, description.
 */
export function queryParameters(input: Function): Array<{
  name: string;
  required: boolean;
  description?: string;
  schema: Schema;
}> {
  const schema = inputSchema(input);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(schema.properties as Record<string, Schema>).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: Object.keys(rest).length ? rest : { type: 'string' },
    };
  });
}

function resourceRef(target: Function): Schema {
  const name = getResourceOptions(target)?.shortName ?? target.name;
  return { $ref: `#/components/schemas/${name}` };
}
