/**
 * How the console scopes its requests to the chosen workspace, as the API declares it (pure,
 * unit-tested in scoping.spec.ts):
 * - collections with a `/workspaces/{id}/…` route are listed through it;
 * - collections with a `workspace.id` filter get that filter;
 * - a create of a workspace-owned record without a `workspace` gets the chosen one's IRI.
 */

/** Collections the API nests under `/workspaces/{id}/` with the same parameters. */
export const NESTED_UNDER_WORKSPACE = new Set([
  'shipments',
  'orders',
  'statuses',
  'workflows',
  'tracking_pages',
  'email_notifications',
  'notes',
  'widgets',
  'workspace_members',
]);

/** Collections that take an exact `workspace.id` filter instead. */
export const FILTERED_BY_WORKSPACE = new Set([
  'fields',
  'fields_layouts',
  'shipment_items',
  'order_items',
  'tracking_checkpoints',
]);

/**
 * Parameters a collection's list cannot go without (`GET /fields` answers 400 without
 * `entity`): a list whose filter was cleared still gets them.
 */
export const REQUIRED_LIST_PARAMETERS: Record<string, Record<string, string>> = {
  fields: { entity: 'shipments' },
};

/** `url` with the parameters its collection needs, where absent (always a new URL). */
export function withRequiredParameters(url: URL): URL {
  const out = new URL(url.href);
  const collection = /^\/([a-z_]+)$/.exec(url.pathname)?.[1];
  const required = collection ? REQUIRED_LIST_PARAMETERS[collection] : undefined;
  if (!required) return out;
  for (const [name, value] of Object.entries(required))
    if (!out.searchParams.has(name)) out.searchParams.set(name, value);
  return out;
}

/** Records whose POST body names their workspace. */
export const CREATED_IN_WORKSPACE = new Set([
  'shipments',
  'orders',
  'statuses',
  'workflows',
  'tracking_pages',
  'email_notifications',
  'fields',
]);

export interface OutgoingRequest {
  url: URL;
  method: string;
  body?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request as sent in the workspace `workspace` (null: none chosen, unchanged). */
export function scopedRequest(request: OutgoingRequest, workspace: string | null): OutgoingRequest {
  if (!workspace || !UUID.test(workspace)) return request;
  const collection = /^\/([a-z_]+)$/.exec(request.url.pathname)?.[1];
  if (!collection) return request;
  const method = request.method.toUpperCase();
  if (method === 'GET' && NESTED_UNDER_WORKSPACE.has(collection)) {
    const url = new URL(request.url.href);
    url.pathname = `/workspaces/${workspace}/${collection}`;
    return { ...request, url };
  }
  if (method === 'GET' && FILTERED_BY_WORKSPACE.has(collection)) {
    const url = new URL(request.url.href);
    if (!url.searchParams.has('workspace.id')) url.searchParams.set('workspace.id', workspace);
    return { ...request, url };
  }
  if (
    method === 'POST' &&
    CREATED_IN_WORKSPACE.has(collection) &&
    typeof request.body === 'string'
  ) {
    const body = JSON.parse(request.body) as Record<string, unknown>;
    if (body.workspace != null && body.workspace !== '') return request;
    return { ...request, body: JSON.stringify({ ...body, workspace: `/workspaces/${workspace}` }) };
  }
  return request;
}

/**
 * Related records of one record (react-admin's getManyReference): which list to read and
 * with which filter. Null: the target is not one the API can filter by.
 */
export function manyReference(
  resource: string,
  target: string,
  id: string,
): { resource: string; filter: Record<string, string> } | null {
  const uuid = id.split('/').pop() ?? '';
  if (!UUID.test(uuid)) return null;
  if (resource === 'tracking_checkpoints' && target === 'shipment')
    return { resource: `shipments/${uuid}/checkpoints`, filter: {} };
  if (resource === 'order_items' && target === 'order')
    return { resource: `orders/${uuid}/items`, filter: {} };
  if (resource === 'shipment_items' && (target === 'shipment' || target === 'orderItem'))
    return { resource, filter: { [`${target}.id`]: uuid } };
  return null;
}

/** A list's filter as `hydra:search` maps it. */
export interface SearchMapping {
  variable: string;
  property: string | null;
  required: boolean;
}

/**
 * Filters the app bar's workspace switcher sets on every list: not offered again as filter
 * inputs (a guessed `workspace` reference renders an autocomplete, and a second workspace
 * choice would contradict the switcher's).
 */
export const SET_BY_THE_CONSOLE = new Set(['workspace', 'workspace.id', 'workspace.id[]']);

/**
 * The filters a list offers, as the doc parser reads them from `hydra:search` (mappings
 * without a property are not filters of a field): those the console sets itself left out.
 */
export function offeredFilters(mapping: readonly SearchMapping[]): SearchMapping[] {
  return mapping.filter((m) => m.property !== null && !SET_BY_THE_CONSOLE.has(m.variable));
}
