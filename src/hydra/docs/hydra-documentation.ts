import type { ActionDeclaration } from '../actions/action-declaration';
import type { DeclaredAction } from '../actions/action-registry';
import type { PropertyMeta, ResourceLookup, ResourceMeta } from '../core/resource-meta';
import { getResourceOptions } from '../metadata/decorators';
import { documentationUrl, vocabularyOf } from '../serialization/documentation-link';
import { API_VERSION } from './api-version';
import type {
  HydraApiDocumentation,
  HydraEntrypoint,
  JsonLdContextDocument,
} from './hydra-documentation.output';
import { resourceRoutes, type ResourceRoute } from './resource-routes';
import { createWrite, writtenAttributes } from './write-contract';

type Node = Record<string, unknown>;

const HYDRA = 'http://www.w3.org/ns/hydra/core#';

const XMLS: Record<string, string> = {
  string: 'xmls:string',
  integer: 'xmls:integer',
  number: 'xmls:decimal',
  decimal: 'xmls:decimal',
  boolean: 'xmls:boolean',
  datetime: 'xmls:dateTime',
};

/**
 * Hydra's own link terms typed `@id` in every context: a collection's view links and the
 * documentation's entry point are IRIs to follow, not text (a Hydra client such as alcaeus
 * reads an untyped `"hydra:next": "/shipments?page=2"` as a string literal).
 */
const LINK_TERMS = Object.fromEntries(
  ['first', 'last', 'previous', 'next', 'entrypoint'].map((name) => [
    `hydra:${name}`,
    { '@id': `hydra:${name}`, '@type': '@id' },
  ]),
);

/** What the documentation describes: the resources and the actions at their IRIs. */
export interface DocumentationSource {
  resources: readonly ResourceMeta[];
  lookup: ResourceLookup;
  actions: readonly DeclaredAction[];
}

export function entrypointKey(resource: ResourceMeta): string {
  return resource.shortName.charAt(0).toLowerCase() + resource.shortName.slice(1);
}

/** `GET /`: one IRI per resource collection. */
export function entrypoint(resources: readonly ResourceMeta[]): HydraEntrypoint {
  const body: HydraEntrypoint = {
    '@context': '/contexts/Entrypoint',
    '@id': '/',
    '@type': 'Entrypoint',
  };
  for (const r of [...resources].sort((a, b) => entrypointKey(a).localeCompare(entrypointKey(b)))) {
    if (r.operations.has('list')) body[entrypointKey(r)] = r.path;
  }
  return body;
}

function contextHead(base: string): Node {
  return { '@vocab': vocabularyOf(base), hydra: HYDRA, ...LINK_TERMS };
}

/** `/contexts/<Resource>`: maps property names to vocabulary terms; references are typed `@id`. */
export function resourceContext(resource: ResourceMeta, base: string): JsonLdContextDocument {
  const ctx = contextHead(base);
  for (const p of resource.properties) {
    if (!p.readable && p.writable.size === 0) continue;
    if (p.name === resource.idProperty) continue;
    const term = `${resource.shortName}/${p.name}`;
    ctx[p.name] = isLink(p) ? { '@id': term, '@type': '@id' } : term;
  }
  return { '@context': ctx };
}

export function entrypointContext(
  resources: readonly ResourceMeta[],
  base: string,
): JsonLdContextDocument {
  const ctx = contextHead(base);
  for (const r of resources)
    if (r.operations.has('list'))
      ctx[entrypointKey(r)] = { '@id': `Entrypoint/${entrypointKey(r)}`, '@type': '@id' };
  return { '@context': ctx };
}

export function errorContext(
  base: string,
  kind: 'Error' | 'ConstraintViolationList',
): JsonLdContextDocument {
  const ctx = contextHead(base);
  if (kind === 'Error')
    Object.assign(ctx, { title: 'hydra:title', description: 'hydra:description' });
  else Object.assign(ctx, { violations: 'ConstraintViolationList/violations' });
  return { '@context': ctx };
}

/** References and to-many relations: IRIs in the records. */
function isLink(p: PropertyMeta): boolean {
  return p.kind === 'reference' || p.kind === 'collection';
}

/** `#ShortName` of a related class, or undefined when it is no resource. */
function classOf(lookup: ResourceLookup, target: Function | undefined): string | undefined {
  if (!target || !getResourceOptions(target)) return undefined;
  return `#${lookup.get(target).shortName}`;
}

/** A property's rdfs:range: the related class, the XML Schema type, or none (JSON objects). */
function rangeOf(p: PropertyMeta, lookup: ResourceLookup): string | undefined {
  if (p.kind === 'reference' || p.kind === 'object' || p.kind === 'collection')
    return classOf(lookup, p.target);
  if (p.kind === 'embedded') return undefined;
  return XMLS[p.type === 'array' ? (p.items ?? '') : p.type];
}

function supportedProperty(
  resource: ResourceMeta,
  name: string,
  shape: {
    link: boolean;
    range?: string;
    single?: boolean;
    required: boolean;
    readable: boolean;
    writeable: boolean;
    description?: string;
  },
): Node {
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#${resource.shortName}/${name}`,
      // Related records given as IRIs are links (API Platform: readableLink false).
      '@type': shape.link ? 'hydra:Link' : 'rdf:Property',
      'rdfs:label': name,
      domain: `#${resource.shortName}`,
      ...(shape.range ? { range: shape.range } : {}),
      ...(shape.single ? { 'owl:maxCardinality': 1 } : {}),
    },
    'hydra:title': name,
    'hydra:required': shape.required,
    'hydra:readable': shape.readable,
    'hydra:writeable': shape.writeable,
    ...(shape.description ? { 'hydra:description': shape.description } : {}),
  };
}

/** The class's properties: its own, then the attributes only a write's input DTO reads. */
function supportedProperties(
  resource: ResourceMeta,
  routes: readonly ResourceRoute[],
  lookup: ResourceLookup,
): Node[] {
  const written = writtenAttributes(resource, routes);
  const create = createWrite(resource, routes);
  const required = (name: string) => create.get(name)?.required === true;
  const out: Node[] = [];
  for (const p of resource.properties) {
    if (!p.readable && !written.has(p.name)) continue;
    const range = rangeOf(p, lookup);
    out.push(
      supportedProperty(resource, p.name, {
        link: isLink(p) && !!range,
        range,
        single: (p.kind === 'reference' || p.kind === 'object') && !!range,
        required: required(p.name),
        readable: p.readable,
        writeable: written.has(p.name),
        description: p.options.description,
      }),
    );
  }
  for (const [name, schema] of written) {
    if (resource.byName.has(name) || !schema) continue;
    const type = schema.type === 'number' ? 'decimal' : String(schema.type ?? '');
    out.push(
      supportedProperty(resource, name, {
        link: false,
        range: XMLS[type],
        required: required(name),
        readable: false,
        writeable: true,
        description: typeof schema.description === 'string' ? schema.description : undefined,
      }),
    );
  }
  return out;
}

/** What an action answers, as a class: the record's, a collection, or nothing. */
function returnsOf(action: ActionDeclaration, lookup: ResourceLookup): string {
  const output = action.output;
  if (output === 'none') return 'owl:Nothing';
  if ('item' in output) return classOf(lookup, output.item) ?? 'rdfs:Resource';
  if ('collection' in output) return 'hydra:Collection';
  return 'rdfs:Resource';
}

/**
 * One operation as API Platform documents it (its titles and schema.org action types), or the
 * action's own summary; `expects` is the resource's class when the body is the resource or an
 * input DTO whose attributes the class lists.
 */
function operation(
  resource: ResourceMeta,
  route: ResourceRoute,
  lookup: ResourceLookup,
): Node | null {
  const own = `#${resource.shortName}`;
  const name = resource.shortName;
  const action = route.action;
  const writes = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  const expects = writes ? (action && !action.input ? 'owl:Nothing' : own) : undefined;
  const kinds: Record<string, [string | null, string, string]> = {
    'collection GET': [
      'schema:FindAction',
      `Retrieves the collection of ${name} resources.`,
      'hydra:Collection',
    ],
    'collection POST': ['schema:CreateAction', `Creates a ${name} resource.`, own],
    'item GET': ['schema:FindAction', `Retrieves a ${name} resource.`, own],
    'item PUT': ['schema:ReplaceAction', `Replaces the ${name} resource.`, own],
    'item PATCH': [null, `Updates the ${name} resource.`, own],
    'item DELETE': ['schema:DeleteAction', `Deletes the ${name} resource.`, 'owl:Nothing'],
    'item POST': ['schema:CreateAction', `Creates a ${name} resource.`, own],
  };
  const kind = kinds[`${route.scope} ${route.method}`];
  if (!kind) return null;
  const [type, title, returns] = kind;
  const label = action?.summary ?? title;
  return {
    '@type': type ? ['hydra:Operation', type] : 'hydra:Operation',
    'hydra:method': route.method,
    'hydra:title': label,
    'rdfs:label': label,
    ...(expects ? { expects } : {}),
    returns: action ? returnsOf(action, lookup) : returns,
  };
}

function operations(
  resource: ResourceMeta,
  routes: readonly ResourceRoute[],
  scope: ResourceRoute['scope'],
  lookup: ResourceLookup,
): Node[] {
  return routes
    .filter((r) => r.scope === scope)
    .map((r) => operation(resource, r, lookup))
    .filter((o): o is Node => o !== null);
}

/** The entry point's link to a collection: its member class and the collection's operations. */
function entrypointProperty(
  r: ResourceMeta,
  routes: readonly ResourceRoute[],
  lookup: ResourceLookup,
): Node {
  const label = `The collection of ${r.shortName} resources`;
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#Entrypoint/${entrypointKey(r)}`,
      '@type': 'hydra:Link',
      domain: '#Entrypoint',
      'rdfs:label': label,
      // API Platform's restriction: a collection whose hydra:member are all of the class.
      'rdfs:range': [
        { '@id': 'hydra:Collection' },
        {
          'owl:equivalentClass': {
            'owl:onProperty': { '@id': 'hydra:member' },
            'owl:allValuesFrom': { '@id': `#${r.shortName}` },
          },
        },
      ],
      'hydra:supportedOperation': operations(r, routes, 'collection', lookup),
    },
    'hydra:title': label,
    'hydra:readable': true,
    'hydra:writeable': false,
  };
}

/**
 * `/docs.jsonld`: the hydra:ApiDocumentation of every resource. Its ids (`#Shipment`) and every
 * context's `@vocab` share one base, the absolute documentation URL (`@base`), wherever the
 * document was fetched from.
 */
export function apiDocumentation(source: DocumentationSource, base: string): HydraApiDocumentation {
  const { resources, lookup, actions } = source;
  const routes = new Map(resources.map((r) => [r, resourceRoutes(r, actions)]));
  const classes: Node[] = resources.map((r) => ({
    '@id': `#${r.shortName}`,
    '@type': 'hydra:Class',
    'rdfs:label': r.shortName,
    'hydra:title': r.shortName,
    ...(r.options.description ? { 'hydra:description': r.options.description } : {}),
    'hydra:supportedProperty': supportedProperties(r, routes.get(r)!, lookup),
    'hydra:supportedOperation': operations(r, routes.get(r)!, 'item', lookup),
  }));
  classes.push({
    '@id': '#Entrypoint',
    '@type': 'hydra:Class',
    'hydra:title': 'The API entrypoint',
    'hydra:supportedProperty': resources
      .filter((r) => r.operations.has('list'))
      .map((r) => entrypointProperty(r, routes.get(r)!, lookup)),
    'hydra:supportedOperation': {
      '@type': 'hydra:Operation',
      'hydra:method': 'GET',
      'rdfs:label': 'The API entrypoint.',
      returns: '#Entrypoint',
    },
  });
  const violation = (name: string, range: string, description: string): Node => ({
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#ConstraintViolation${name === 'violations' ? 'List' : ''}/${name}`,
      '@type': 'rdf:Property',
      'rdfs:label': name,
      domain: name === 'violations' ? '#ConstraintViolationList' : '#ConstraintViolation',
      range,
    },
    'hydra:title': name,
    'hydra:description': description,
    'hydra:required': false,
    'hydra:readable': true,
    'hydra:writeable': false,
  });
  classes.push({
    '@id': '#ConstraintViolation',
    '@type': 'hydra:Class',
    'hydra:title': 'A constraint violation',
    'hydra:supportedProperty': [
      violation('propertyPath', 'xmls:string', 'The property path of the violation'),
      violation('message', 'xmls:string', 'The message associated with the violation'),
      violation('code', 'xmls:string', 'The code of the violated constraint'),
    ],
  });
  classes.push({
    '@id': '#ConstraintViolationList',
    '@type': 'hydra:Class',
    subClassOf: 'hydra:Error',
    'hydra:title': 'A constraint violation list',
    'hydra:supportedProperty': [violation('violations', '#ConstraintViolation', 'The violations')],
  });
  return {
    '@context': {
      '@base': documentationUrl(base),
      '@vocab': vocabularyOf(base),
      hydra: HYDRA,
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      xmls: 'http://www.w3.org/2001/XMLSchema#',
      owl: 'http://www.w3.org/2002/07/owl#',
      schema: 'https://schema.org/',
      domain: { '@id': 'rdfs:domain', '@type': '@id' },
      range: { '@id': 'rdfs:range', '@type': '@id' },
      subClassOf: { '@id': 'rdfs:subClassOf', '@type': '@id' },
      expects: { '@id': 'hydra:expects', '@type': '@id' },
      returns: { '@id': 'hydra:returns', '@type': '@id' },
      ...LINK_TERMS,
    },
    '@id': '/docs.jsonld',
    '@type': 'hydra:ApiDocumentation',
    'hydra:title': 'Shipment Tracking API',
    'hydra:description': 'Shipments, carriers, tracking status, orders and notifications.',
    'hydra:entrypoint': '/',
    version: API_VERSION,
    'hydra:supportedClass': classes,
  };
}
