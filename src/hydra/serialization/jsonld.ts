import type { Filter, SearchVariable } from '../core/filter';
import { iriSegment } from '../core/identifiers';
import type { ResourceMeta } from '../core/resource-meta';
import type { QueryParams } from '../core/query-params';
import { lastPage, type CollectionResult } from '../query/pagination';
import type { ApiRecord } from '../core/api-record';
import { rebuildQuery } from './query-string';

/** The JSON-LD keys in front of a record's own: `@context` (unless embedded), `@id`, `@type`. */
function jsonLdHead(resource: ResourceMeta, id: unknown, withContext: boolean): ApiRecord {
  const head: ApiRecord = withContext ? { '@context': `/contexts/${resource.shortName}` } : {};
  head['@id'] = `${resource.path}/${iriSegment(resource, id)}`;
  head['@type'] = resource.shortName;
  return head;
}

export function jsonLdItem(
  resource: ResourceMeta,
  record: ApiRecord,
  withContext = true,
): ApiRecord {
  return Object.assign(jsonLdHead(resource, record[resource.idProperty], withContext), record);
}

/** jsonLdItem's text for a record already written as JSON text (`{...}`), with its id. */
export function jsonLdItemText(resource: ResourceMeta, id: string, json: string): string {
  const head = JSON.stringify(jsonLdHead(resource, id, true));
  return json === '{}' ? head : `${head.slice(0, -1)},${json.slice(1)}`;
}

export function jsonLdCollection(
  resource: ResourceMeta,
  requestPath: string,
  params: QueryParams,
  result: CollectionResult,
  search: SearchVariable[],
): ApiRecord {
  const body: ApiRecord = {
    '@context': `/contexts/${resource.shortName}`,
    '@id': requestPath,
    '@type': 'hydra:Collection',
    'hydra:member': result.members.map((m) => jsonLdItem(resource, m, false)),
    'hydra:totalItems': result.totalItems,
  };
  const view = hydraView(requestPath, params, result);
  if (view) body['hydra:view'] = view;
  if (resource.filters.length > 0) body['hydra:search'] = hydraSearch(requestPath, search);
  return body;
}

const searchJson = new Map<string, string>();

/**
 * The collection as JSON text. `hydra:search` is the same for every request
 * on a path and large (a template and a mapping per filter variable), so its
 * JSON is built once per path and spliced in.
 */
export function jsonLdCollectionJson(
  resource: ResourceMeta,
  requestPath: string,
  params: QueryParams,
  result: CollectionResult,
  search: SearchVariable[],
): string {
  const body = jsonLdCollection(resource, requestPath, params, result, []);
  delete body['hydra:search'];
  const json = JSON.stringify(body);
  if (resource.filters.length === 0) return json;
  const key = `${resource.shortName} ${requestPath}`;
  let fragment = searchJson.get(key);
  if (fragment === undefined) {
    fragment = JSON.stringify(hydraSearch(requestPath, search));
    if (searchJson.size >= 10_000) searchJson.clear();
    searchJson.set(key, fragment);
  }
  return `${json.slice(0, -1)},"hydra:search":${fragment}}`;
}

/** `hydra:view` per API Platform's PartialCollectionViewNormalizer. */
export function hydraView(
  path: string,
  params: QueryParams,
  result: CollectionResult,
): ApiRecord | null {
  const { page, itemsPerPage } = result.pagination;
  const last = lastPage(result.totalItems, itemsPerPage);
  const paginated = last !== 1;
  const others = params.pairs.filter(([k]) => k !== 'page');
  if (others.length === 0 && !paginated) return null;
  const iri = (p: number | null) => {
    const qs = rebuildQuery(others, 'page');
    const pageQs = p === null ? '' : `page=${p}`;
    const all = [qs, pageQs].filter(Boolean).join('&');
    return all ? `${path}?${all}` : path;
  };
  const view: ApiRecord = {
    '@id': iri(paginated ? page : null),
    '@type': 'hydra:PartialCollectionView',
  };
  if (paginated) {
    view['hydra:first'] = iri(1);
    view['hydra:last'] = iri(last);
    if (page !== 1) view['hydra:previous'] = iri(page - 1);
    if (page < last) view['hydra:next'] = iri(page + 1);
  }
  return view;
}

export function hydraSearch(path: string, variables: SearchVariable[]): ApiRecord {
  return {
    '@type': 'hydra:IriTemplate',
    'hydra:template': `${path}{?${variables.map((v) => v.variable).join(',')}}`,
    'hydra:variableRepresentation': 'BasicRepresentation',
    'hydra:mapping': variables.map((v) => ({
      '@type': 'IriTemplateMapping',
      variable: v.variable,
      property: v.property,
      required: v.required,
    })),
  };
}

export function describeFilters(
  resource: ResourceMeta,
  typeOf: (property: string) => ReturnType<Parameters<Filter['describe']>[0]>,
): SearchVariable[] {
  return resource.filters.flatMap((f) => f.describe(typeOf));
}
