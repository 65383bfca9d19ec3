import type { ActionDeclaration, HttpMethod } from '../actions/action-declaration';
import type { DeclaredAction } from '../actions/action-registry';
import type { ResourceMeta } from '../core/resource-meta';
import { isGeneratedAction } from '../controller/resource-controller';

/** A route at one of a resource's IRIs: its collection (`/shipments`) or an item. */
export interface ResourceRoute {
  method: HttpMethod;
  scope: 'collection' | 'item';
  /** The action serving it; absent: generated from the declaration. */
  action?: ActionDeclaration;
}

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Every route at a resource's collection and item IRIs, the declared operations and the
 * actions written by hand (`POST /team_members`, `POST /media`) alike: what Hydra's
 * `supportedOperation` describes (an operation of a class applies to its items' IRIs, one of
 * the entry point's collection property to the collection's). Routes at other IRIs (searches,
 * batches, nested collections) are the OpenAPI description's.
 */
export function resourceRoutes(
  resource: ResourceMeta,
  actions: readonly DeclaredAction[],
): ResourceRoute[] {
  const routes: ResourceRoute[] = [];
  const add = (route: ResourceRoute) => {
    const same = routes.findIndex((r) => r.method === route.method && r.scope === route.scope);
    if (same >= 0) routes[same] = route;
    else routes.push(route);
  };
  const declared: Array<[string, HttpMethod, ResourceRoute['scope']]> = [
    ['list', 'GET', 'collection'],
    ['post', 'POST', 'collection'],
    ['get', 'GET', 'item'],
    ['put', 'PUT', 'item'],
    ['delete', 'DELETE', 'item'],
  ];
  for (const [operation, method, scope] of declared)
    if (resource.operations.has(operation as never)) add({ method, scope });
  for (const { declaration } of actions) {
    if (isGeneratedAction(declaration)) continue;
    const scope = routeScope(resource, declaration.path);
    if (scope) add({ method: declaration.method, scope, action: declaration });
  }
  return routes.sort(
    (a, b) =>
      Number(a.scope === 'item') - Number(b.scope === 'item') ||
      METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
}

/** `collection` for the resource's path, `item` for its path and one parameter. */
function routeScope(resource: ResourceMeta, path: string): ResourceRoute['scope'] | null {
  if (path === resource.path) return 'collection';
  const rest = path.startsWith(`${resource.path}/:`) ? path.slice(resource.path.length + 2) : '';
  return /^[A-Za-z0-9_]+$/.test(rest) ? 'item' : null;
}
