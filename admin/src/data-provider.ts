import {
  fetchHydra,
  hydraDataProvider,
  type ApiPlatformAdminDataProvider,
  type HttpClientOptions,
  type HydraHttpClientResponse,
} from '@api-platform/admin';
import { Parameter, parseHydraDocumentation, type Resource } from '@api-platform/api-doc-parser';
import { freshSession, session } from './auth';
import {
  manyReference,
  offeredFilters,
  scopedRequest,
  withRequiredParameters,
  type SearchMapping,
} from './scoping';
import { setMembershipLookup, workspaceId } from './workspace';

/** The API root: the console is served by the API itself, at /admin/. */
export const ENTRYPOINT = window.location.origin;

function headers(accessToken?: string): Headers {
  const h = new Headers({ Accept: 'application/ld+json' });
  if (accessToken) h.set('Authorization', `Bearer ${accessToken}`);
  return h;
}

/**
 * Sends a request with a live access token (refreshed first when about to expire). A 401
 * gets one refresh, shared with the other requests that got one, and one retry; a refused
 * refresh has signed out, and the 401 goes on to the auth provider (login page); one that
 * could not reach the service fails the request with SessionUnavailable (still signed in).
 */
async function withToken<T>(send: (headers: Headers) => Promise<T>): Promise<T> {
  const signedIn = await freshSession();
  try {
    return await send(headers(signedIn?.accessToken));
  } catch (error) {
    if (!signedIn || (error as { status?: number } | null)?.status !== 401) throw error;
    const renewed = await freshSession(signedIn.accessToken);
    if (!renewed) throw error;
    return send(headers(renewed.accessToken));
  }
}

/** fetchHydra with the bearer token and the chosen workspace's scope. */
function httpClient(url: URL, options: HttpClientOptions = {}): Promise<HydraHttpClientResponse> {
  const method = options.method ?? 'GET';
  const scoped = scopedRequest(
    {
      url: method.toUpperCase() === 'GET' ? withRequiredParameters(url) : url,
      method,
      body: options.body,
    },
    workspaceId(),
  );
  const given = typeof options.headers === 'function' ? options.headers() : options.headers;
  return withToken((merged) => {
    new Headers(given ?? {}).forEach((value, name) => {
      if (name.toLowerCase() !== 'authorization') merged.set(name, value);
    });
    return fetchHydra(scoped.url, {
      ...options,
      body: (scoped.body ?? undefined) as HttpClientOptions['body'],
      headers: merged,
    });
  });
}

/**
 * A GET of an API path outside react-admin's resources (the home page's counts and carrier
 * analytics), with the bearer token: its JSON-LD body.
 */
export async function apiGet(
  path: string,
  params: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const url = new URL(path, ENTRYPOINT);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const { json } = await withToken((h) => fetchHydra(url, { headers: h }));
  return json as Record<string, unknown>;
}

/**
 * A list's filters, read the way the doc parser reads them (a list's `hydra:search`) but
 * through the console's own client: with the token, the chosen workspace and the parameters
 * a list needs (the parser's bare `GET /fields` is a 400), and without the filters the
 * workspace switcher sets.
 */
async function listFilters(resource: Resource): Promise<Parameter[]> {
  // A list the user may not read offers no filters (the parser's own probe did the same).
  const json = await httpClient(new URL(resource.url)).then(
    (r) => r.json,
    () => ({}),
  );
  const search = (json as { 'hydra:search'?: { 'hydra:mapping'?: SearchMapping[] } })[
    'hydra:search'
  ];
  const parameters = offeredFilters(search?.['hydra:mapping'] ?? []).map((m) => {
    const range = resource.fields?.find((f) => f.name === m.property)?.range ?? null;
    return new Parameter(m.variable, range, m.required, '');
  });
  resource.parameters = parameters;
  return parameters;
}

const base = hydraDataProvider({
  entrypoint: ENTRYPOINT,
  httpClient,
  // The documentation is public, but the same headers keep the parser's requests alike.
  apiDocumentationParser: async (entrypoint: string) => {
    // The documentation is public: a session that cannot be renewed now reads it all the same.
    const token = (await freshSession().catch(() => null))?.accessToken;
    const parsed = await parseHydraDocumentation(entrypoint, { headers: () => headers(token) });
    for (const resource of parsed.api.resources ?? [])
      resource.getParameters = () => listFilters(resource);
    return parsed;
  },
  mercure: false,
});

/**
 * Related lists (a shipment's checkpoints, an order's items) through the nested routes or the
 * `<relation>.id` filters the API declares.
 */
export const dataProvider: ApiPlatformAdminDataProvider = {
  ...base,
  getManyReference: (resource, params) => {
    const target = manyReference(resource, params.target, String(params.id));
    if (!target) return base.getManyReference(resource, params);
    return base.getList(target.resource, {
      pagination: params.pagination,
      sort: params.sort,
      filter: { ...params.filter, ...target.filter },
      meta: params.meta,
    });
  },
};

setMembershipLookup(async (workspace) => {
  const me = session();
  if (!me) return false;
  const url = new URL('/workspace_members', ENTRYPOINT);
  url.searchParams.set('workspace.id', workspace);
  url.searchParams.set('user.id', me.userId);
  const { json } = await withToken((h) => fetchHydra(url, { headers: h }));
  const members = (json as { 'hydra:member'?: Array<Record<string, unknown>> })['hydra:member'];
  const mine = members?.[0];
  // No membership row: an owner or admin of the team, who may write.
  return mine !== undefined && mine.accessLevel === 'read' && mine.teamAdmin !== true;
});
