import type { PropertyMeta, ResourceMeta } from '../core/resource-meta';
import { API_VERSION } from './api-version';
import type {
  HydraApiDocumentation,
  HydraEntrypoint,
  JsonLdContextDocument,
} from './hydra-documentation.output';

const XMLS: Record<string, string> = {
  string: 'xmls:string',
  integer: 'xmls:integer',
  number: 'xmls:decimal',
  decimal: 'xmls:decimal',
  boolean: 'xmls:boolean',
  datetime: 'xmls:dateTime',
};

export function entrypointKey(resource: ResourceMeta): string {
  return resource.shortName.charAt(0).toLowerCase() + resource.shortName.slice(1);
}

/** `GET /`: one IRI per resource collection. */
export function entrypoint(resources: ResourceMeta[]): HydraEntrypoint {
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

/** `/contexts/<Resource>`: maps property names to vocabulary terms; references are typed `@id`. */
export function resourceContext(resource: ResourceMeta, vocab: string): JsonLdContextDocument {
  const ctx: Record<string, unknown> = {
    '@vocab': vocab,
    hydra: 'http://www.w3.org/ns/hydra/core#',
  };
  for (const p of resource.properties) {
    if (!p.readable && p.writable.size === 0) continue;
    if (p.name === resource.idProperty) continue;
    const term = `${resource.shortName}/${p.name}`;
    ctx[p.name] =
      p.kind === 'reference' || p.kind === 'collection' ? { '@id': term, '@type': '@id' } : term;
  }
  return { '@context': ctx };
}

export function entrypointContext(resources: ResourceMeta[], vocab: string): JsonLdContextDocument {
  const ctx: Record<string, unknown> = {
    '@vocab': vocab,
    hydra: 'http://www.w3.org/ns/hydra/core#',
  };
  for (const r of resources)
    if (r.operations.has('list'))
      ctx[entrypointKey(r)] = { '@id': `Entrypoint/${entrypointKey(r)}`, '@type': '@id' };
  return { '@context': ctx };
}

export function errorContext(
  vocab: string,
  kind: 'Error' | 'ConstraintViolationList',
): JsonLdContextDocument {
  const base: Record<string, unknown> = {
    '@vocab': vocab,
    hydra: 'http://www.w3.org/ns/hydra/core#',
  };
  if (kind === 'Error')
    Object.assign(base, { title: 'hydra:title', description: 'hydra:description' });
  else Object.assign(base, { violations: 'ConstraintViolationList/violations' });
  return { '@context': base };
}

function supportedProperty(resource: ResourceMeta, p: PropertyMeta): Record<string, unknown> {
  const range =
    p.kind === 'reference' || p.kind === 'object'
      ? `#${p.target?.name ?? 'Resource'}`
      : p.kind === 'collection'
        ? 'hydra:Collection'
        : (XMLS[p.type] ?? 'xmls:string');
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#${resource.shortName}/${p.name}`,
      '@type': p.kind === 'reference' ? 'hydra:Link' : 'rdf:Property',
      'rdfs:label': p.name,
      domain: `#${resource.shortName}`,
      range,
    },
    'hydra:title': p.name,
    'hydra:required': p.writable.has('post') && !p.nullable,
    'hydra:readable': p.readable,
    'hydra:writeable': p.writable.size > 0,
    ...(p.options.description ? { 'hydra:description': p.options.description } : {}),
  };
}

function supportedOperations(r: ResourceMeta): Record<string, unknown>[] {
  const ops: Record<string, unknown>[] = [];
  const op = (type: string, method: string, title: string, extra: Record<string, unknown>) =>
    ops.push({
      '@type': ['hydra:Operation', type],
      'hydra:method': method,
      'hydra:title': title,
      'rdfs:label': title,
      ...extra,
    });
  if (r.operations.has('get'))
    op('schema:FindAction', 'GET', `Retrieves a ${r.shortName} resource.`, {
      returns: `#${r.shortName}`,
    });
  if (r.operations.has('put'))
    op('schema:ReplaceAction', 'PUT', `Replaces the ${r.shortName} resource.`, {
      expects: `#${r.shortName}`,
      returns: `#${r.shortName}`,
    });
  if (r.operations.has('delete'))
    op('schema:DeleteAction', 'DELETE', `Deletes the ${r.shortName} resource.`, {
      returns: 'owl:Nothing',
    });
  return ops;
}

/** `/docs.jsonld`: the hydra:ApiDocumentation of every resource. */
export function apiDocumentation(resources: ResourceMeta[], vocab: string): HydraApiDocumentation {
  const classes: Record<string, unknown>[] = resources.map((r) => ({
    '@id': `#${r.shortName}`,
    '@type': 'hydra:Class',
    'rdfs:label': r.shortName,
    'hydra:title': r.shortName,
    ...(r.options.description ? { 'hydra:description': r.options.description } : {}),
    'hydra:supportedProperty': r.properties
      .filter((p) => p.readable || p.writable.size > 0)
      .map((p) => supportedProperty(r, p)),
    'hydra:supportedOperation': supportedOperations(r),
  }));
  classes.push({
    '@id': '#Entrypoint',
    '@type': 'hydra:Class',
    'hydra:title': 'The API entrypoint',
    'hydra:supportedProperty': resources
      .filter((r) => r.operations.has('list'))
      .map((r) => ({
        '@type': 'hydra:SupportedProperty',
        'hydra:property': {
          '@id': `#Entrypoint/${entrypointKey(r)}`,
          '@type': 'hydra:Link',
          'rdfs:label': `The collection of ${r.shortName} resources`,
          domain: '#Entrypoint',
          range: 'hydra:Collection',
          'hydra:supportedOperation': [
            {
              '@type': ['hydra:Operation', 'schema:FindAction'],
              'hydra:method': 'GET',
              'hydra:title': `Retrieves the collection of ${r.shortName} resources.`,
              returns: 'hydra:Collection',
            },
            ...(r.operations.has('post')
              ? [
                  {
                    '@type': ['hydra:Operation', 'schema:CreateAction'],
                    'hydra:method': 'POST',
                    'hydra:title': `Creates a ${r.shortName} resource.`,
                    expects: `#${r.shortName}`,
                    returns: `#${r.shortName}`,
                  },
                ]
              : []),
          ],
        },
        'hydra:title': entrypointKey(r),
        'hydra:readable': true,
        'hydra:writeable': false,
      })),
    'hydra:supportedOperation': {
      '@type': 'hydra:Operation',
      'hydra:method': 'GET',
      'rdfs:label': 'The API entrypoint.',
      returns: '#EntryPoint',
    },
  });
  classes.push({
    '@id': '#ConstraintViolation',
    '@type': 'hydra:Class',
    'hydra:title': 'A constraint violation',
    'hydra:supportedProperty': ['propertyPath', 'message', 'code'].map((name) => ({
      '@type': 'hydra:SupportedProperty',
      'hydra:property': {
        '@id': `#ConstraintViolation/${name}`,
        '@type': 'rdf:Property',
        'rdfs:label': name,
        domain: '#ConstraintViolation',
        range: 'xmls:string',
      },
      'hydra:title': name,
      'hydra:required': false,
      'hydra:readable': true,
      'hydra:writeable': false,
    })),
  });
  classes.push({
    '@id': '#ConstraintViolationList',
    '@type': 'hydra:Class',
    subClassOf: 'hydra:Error',
    'hydra:title': 'A constraint violation list',
  });
  return {
    '@context': {
      '@vocab': vocab,
      hydra: 'http://www.w3.org/ns/hydra/core#',
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
