import { getMetadataStorage } from 'class-validator';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getResourceOptions } from '../metadata/decorators';
import { DOCUMENTED, type DocumentedAttribute } from '../validation/documented';
import { REQUIRING_CONSTRAINTS } from '../validation/required';
import { TYPE_CONSTRAINT, declaredInputType, type InputType } from '../validation/input-types';
import { MEDIA_TYPES, type Format } from '../serialization/negotiation';
import type { ActionDeclaration, AnswerKinds, OutputClass, OutputList } from './action-declaration';
import { allowOpenMap, isOpenClass } from './open-maps';

type Schema = Record<string, unknown>;

const JSON_TYPES: Record<InputType, Schema> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  array: { type: 'array', items: {} },
  // An open map unless a class describes it: see openMap().
  object: { type: 'object' },
};

/**
 * The JSON schema of a DTO or output class, read from its class-validator declarations (types,
 * required attributes, choices, lengths, nested classes) and `@Documented` attributes, so the
 * docs cannot drift from the validation or from the type a handler returns.
 */
export function classSchema(dto: Function, seen: Set<Function> = new Set()): Schema {
  if (seen.has(dto)) return { type: 'object', description: `A ${dto.name} (recursive).` };
  seen.add(dto);
  try {
    return describeClass(dto, seen);
  } finally {
    seen.delete(dto);
  }
}

function describeClass(dto: Function, seen: Set<Function>): Schema {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const m of metadata) {
    const schema = (properties[m.propertyName] ??= {});
    const name = m.name ?? m.type;
    if (name === TYPE_CONSTRAINT) {
      const { type, each } = declaredInputType(String(m.message));
      // A nested class (ValidateNested) read before describes the elements better.
      if (each && !(schema.items as Schema | undefined)?.properties)
        Object.assign(schema, { type: 'array', items: { ...JSON_TYPES[type] } });
      else if (!each && !schema.properties) Object.assign(schema, JSON_TYPES[type]);
    } else if (name === DOCUMENTED) {
      const {
        required: isRequired,
        of,
        items,
        ...attribute
      } = m.constraints[0] as DocumentedAttribute;
      if (of && attribute.type === 'array')
        Object.assign(schema, attribute, { items: described(of(), seen) });
      else if (of && getResourceOptions(of())) {
        const { type: _type, ...rest } = attribute;
        // A $ref takes no siblings (OpenAPI 3.0): a described one goes in an allOf.
        Object.assign(
          schema,
          Object.keys(rest).length ? { allOf: [resourceRef(of())], ...rest } : resourceRef(of()),
        );
      } else if (of) Object.assign(schema, classSchema(of(), seen), attribute, { type: 'object' });
      else Object.assign(schema, attribute, items ? { items: { type: items } } : {});
      if (isRequired) required.push(m.propertyName);
    } else if (name === 'ofType') {
      Object.assign(schema, JSON_TYPES[m.constraints[0] as InputType]);
    } else if (REQUIRING_CONSTRAINTS.has(name)) {
      required.push(m.propertyName);
    } else if (name === 'choice') {
      schema.enum = [...(m.constraints[0] as unknown[])];
    } else if (name === 'maxLength') {
      schema.maxLength = Number(String(m.message).match(/(\d+)/)?.[1]);
    } else if (m.type === 'nestedValidation') {
      const nested = defaultMetadataStorage.findTypeMetadata(dto, m.propertyName);
      const target = nested?.typeFunction() as Function | undefined;
      if (target) {
        const item = classSchema(target, seen);
        if (m.each || schema.type === 'array')
          Object.assign(schema, { type: 'array', items: item });
        else Object.assign(schema, item);
      }
    }
  }
  for (const [property, schema] of Object.entries(properties)) {
    openMap(schema, `${dto.name}.${property}`);
    // OpenAPI 3.0.3: a nullable enum lists null among its values (null is no string).
    if (schema.nullable && Array.isArray(schema.enum) && !schema.enum.includes(null))
      schema.enum = [...(schema.enum as unknown[]), null];
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...new Set(required)] } : {}),
    ...(isOpenClass(dto.name) ? { additionalProperties: true } : {}),
  };
}

/** A class's schema: a resource's own (a record embedded in an answer), else its attributes'. */
function described(target: Function, seen: Set<Function>): Schema {
  return getResourceOptions(target) ? resourceRef(target) : classSchema(target, seen);
}

/**
 * An attribute that is an object (or an array of objects) no class describes is an open map:
 * documented as such where the spec leaves it free-form (OPEN_MAPS names it), a mistake
 * anywhere else, refused when the declaration is read.
 */
function openMap(schema: Schema, key: string): void {
  const target = schema.type === 'array' ? (schema.items as Schema | undefined) : schema;
  if (!target || target.type !== 'object' || target.properties || 'additionalProperties' in target)
    return;
  allowOpenMap(key);
  target.additionalProperties = true;
}

/**
 * The documented request body of an action: its DTO's schema, or the resource's write schema
 * of the method (`Shipment-post`, `Shipment-put`: its write pipeline reads the body).
 */
export function bodySchema(input: Function, method: string = 'POST'): Schema {
  if (!getResourceOptions(input)) return classSchema(input);
  return resourceRef(input, method === 'POST' ? '-post' : '-put');
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
  const formats = answerFormats(declaration);
  if ('item' in output)
    return {
      description: 'The resource.',
      content: byFormat(formats, () => resourceRef(output.item)),
    };
  if ('collection' in output) {
    const member = resourceRef(output.collection);
    return {
      description: 'A page of the collection (hydra:member in JSON-LD, an array in JSON).',
      content: byFormat(formats, hydraCollection(member), { type: 'array', items: member }),
    };
  }
  const json = output.json;
  if (isOutputList(json)) {
    const item = classSchema(json[0]);
    return {
      description: 'The list: a hydra:Collection in JSON-LD, an array in JSON.',
      content: byFormat(formats, hydraCollection(item), { type: 'array', items: item }),
    };
  }
  return { description: 'The result.', content: byFormat(formats, () => classSchema(json)) };
}

/**
 * The formats a JSON, item or collection answer is written in, as the interceptor offers
 * them (hydra.interceptor.ts offeredFormats): declared, or JSON-LD and JSON for JSON answers,
 * every format for records; `'any'` is plain JSON.
 */
function answerFormats(declaration: ActionDeclaration): readonly Format[] {
  if (declaration.formats === 'any') return ['json'];
  if (declaration.formats) return declaration.formats;
  const output = declaration.output;
  return typeof output === 'object' && 'json' in output
    ? ['jsonld', 'json']
    : ['jsonld', 'json', 'csv', 'html'];
}

/** The content of each format: `jsonld` its schema, `json` the plain one (default the same). */
function byFormat(
  formats: readonly Format[],
  jsonld: Schema | (() => Schema),
  json?: Schema,
): Record<string, { schema: Schema }> {
  const ld = typeof jsonld === 'function' ? jsonld() : jsonld;
  const schemas: Record<Format, Schema> = {
    jsonld: ld,
    json: json ?? ld,
    csv: { type: 'string' },
    html: { type: 'string' },
  };
  return Object.fromEntries(formats.map((f) => [MEDIA_TYPES[f], { schema: schemas[f] }]));
}

/** A hydra:Collection page of `member` records (JSON-LD). */
function hydraCollection(member: Schema): Schema {
  return {
    type: 'object',
    properties: {
      'hydra:member': { type: 'array', items: member },
      'hydra:totalItems': { type: 'integer', minimum: 0 },
    },
  };
}

function isOutputList(json: OutputClass | OutputList): json is OutputList {
  return Array.isArray(json);
}

/** The answers of a `{ oneOf }` action: JSON (as negotiated, or plain), a page, a redirect. */
function oneOfSchema(
  declaration: ActionDeclaration,
  kinds: AnswerKinds,
): { description: string; content?: Record<string, { schema: Schema }> } {
  const content: Record<string, { schema: Schema }> = {};
  const words: string[] = [];
  if (kinds.json) {
    const schema = classSchema(kinds.json);
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
  const schema = classSchema(input);
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

function resourceRef(target: Function, suffix = ''): Schema {
  const name = getResourceOptions(target)?.shortName ?? target.name;
  return { $ref: `#/components/schemas/${name}${suffix}` };
}
