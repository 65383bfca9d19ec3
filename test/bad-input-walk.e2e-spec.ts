import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { PrincipalLoader } from '../src/access/principal-loader';
import { DataProvider } from '../src/hydra/collection/data-provider';
import type { PropertyMeta, ResourceMeta } from '../src/hydra/core/resource-meta';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { QueryParams } from '../src/hydra/core/query-params';
import { NotificationsService } from '../src/notifications/notifications.service';
import { RemoteImages } from '../src/tracking-pages/page/remote-images';
import { closeTestApp, createTestApp, testAppUrl } from './support/app';
import { answerProblems, recordAnswers, type RecordedAnswer } from './support/openapi-responses';
import { api, JSON_LD, MERGE_PATCH, PLAIN_JSON } from './support/http';
import {
  createEveryResourceFor,
  paramKinds,
  RouteCase,
  walkableRoutes,
} from './support/route-walk';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
  createStatus,
  testTrackingNumber,
} from './factories/commerce.factory';
import { createClient, joinTeam } from './factories/identity.factory';
import { PNG, upload } from './factories/media.factory';
import { createTenant, Tenant } from './factories/tenant.factory';

/**
 * Robustness walk: EVERY registered route (read from the Express router, so routes added later
 * are walked too), called by a tenant that owns a record of every kind, with malformed input:
 * bad path ids, malformed and mistyped bodies, garbage query strings, unsupported Accept and
 * Content-Type headers. No answer may be a 5xx; every 4xx must be in the documented format
 * (hydra:Error / ConstraintViolationList in JSON-LD, problem+json for JSON clients, RFC 6749
 * errors on the OAuth endpoints); where the reference prescribes a status (400 syntax and types,
 * 404 unknown ids, 406, 415, pagination), that status; and a refused request changes nothing
 * (row triggers record every INSERT/UPDATE/DELETE while the walk runs).
 */

const INTEGRATION_SECRET = 'walk-integration-secret';
const BILLING_WEBHOOK_SECRET = 'walk-billing-secret';
const STOREFRONT_WEBHOOK_SECRET = 'walk-storefront-secret';
Object.assign(process.env, {
  // Deterministic: nothing runs in the background while the walk watches the tables.
  JOB_WORKERS_ENABLED: 'false',
  // Secret-guarded and opt-in routes are walked past their guards, into their body checks.
  INTEGRATION_SECRET,
  BILLING_WEBHOOK_SECRET,
  STOREFRONT_APP_WEBHOOK_SECRET: STOREFRONT_WEBHOOK_SECRET,
  ENABLE_TEST_FIXTURES: 'true',
  // Theme generation fetches the walk's own shop page.
  THEME_FETCH_ALLOWED_HOSTS: '127.0.0.1',
  // The tracking page image proxy fetches the walk shop's image.
  IMAGE_PROXY_ALLOWED_HOSTS: '127.0.0.1',
  // Every request reaches the token endpoints' own checks (a 429 would hide them).
  TOKEN_RATE_LIMIT_PER_ADDRESS: '1000000',
  TOKEN_RATE_LIMIT_PER_CLIENT: '1000000',
});

/**
 * Widget lookups allow 30 per widget and address per minute (not configurable): the walk
 * clears the counters before every RATE_LIMIT_CHUNK requests to them.
 */
const RATE_LIMITED = /^POST \/(public\/widgets\/:id\/lookup|track\/:subdomain)$/;
const RATE_LIMIT_CHUNK = 20;

/** Requests in flight at once (2-core machine). */
const CONCURRENCY = 6;
const NO_SUCH_UUID = '7e0c5a1e-0000-4000-8000-00000000beef';
const LONG = 'x'.repeat(10_000);

/** Path segments (already encoded as sent) that identify nothing. */
const BAD_IDS: Array<[string, string]> = [
  ['not a uuid', 'not-a-uuid'],
  ['unknown uuid', NO_SUCH_UUID],
  ['NUL', '%00'],
  ['NUL inside', 'abc%00def'],
  ['10k chars', LONG],
  ['unicode', '%E2%98%83%F0%9F%9A%9A'],
  ['invalid UTF-8', '%C3%28'],
  ['bad escape', '%ZZ'],
  ['uuid and more', `${NO_SUCH_UUID}x`],
  ['quote', "x'%22%3B--"],
];

/**
 * Routes whose path parameter is a value, not an id (a tracking number to detect the carrier
 * of): a segment that identifies nothing is still a value, answered (200) or refused (422).
 */
const VALUE_PARAMS = new Set(['GET /tracking_numbers/:trackingNumber/detect-carrier']);

/** Segments the router cannot percent-decode: a malformed URL (400) as much as an unknown id. */
const UNDECODABLE = new Set(['invalid UTF-8', 'bad escape']);

/** Query values that are of no declared type (encoded as sent). */
const BAD_QUERY_VALUES: Array<[string, string]> = [
  ['word', 'sideways'],
  ['bad date', '2020-13-45'],
  ['bad date-time', '2020-02-30T25:61:00Z'],
  ['not a uuid', 'notauuid'],
  ['empty', ''],
  ['NUL', '%00'],
  ['invalid UTF-8', '%FF'],
  ['unicode', '%E2%98%83'],
  ['10k chars', LONG],
  ['huge number', '99999999999999999999999'],
  ['exponent', '1e400'],
  ['range junk', '1..2..3'],
  ['negative', '-1'],
];

/** Query keys and whole query strings nobody declared. */
const UNKNOWN_QUERIES = [
  'foo=bar',
  'order=asc',
  'order[]=asc',
  'exists=1',
  'empty[]=x',
  '%ZZ=1',
  'a[=1',
  '[]=1',
  '=',
  '&&&',
  'id[][]=x',
  'id[a][b]=x',
  'order[id][x]=asc',
  `${LONG}=1`,
];

/** Pagination parameters and the answer API Platform gives. */
const PAGINATION: Array<[string, number]> = [
  ['page=-1', 400],
  ['page=0', 400],
  ['page=abc', 400],
  ['page=1.5', 400],
  ['page=99999999999999999999', 400],
  ['page=1&page=abc', 400],
  ['page=%00', 400],
  ['page[]=2', 200],
  ['page=9999', 200],
  ['itemsPerPage=1e9', 200],
  ['itemsPerPage=1000000000', 200],
  ['itemsPerPage=-1', 400],
  ['itemsPerPage=abc', 200],
  ['itemsPerPage[]=5', 200],
  ['itemsPerPage=0&page=2', 400],
  ['itemsPerPage=0', 200],
];

/** Formats of collections (CSV streams from a cursor). */
const ALL_FORMATS = [JSON_LD, PLAIN_JSON, 'text/csv', 'text/html'];

/** Collections that need a query parameter (not a filter: garbage in it is a 400). */
const REQUIRED_QUERY: Record<string, string> = { '/fields': 'entity=shipments' };

/** Query parameters of the GET routes that are not collections. */
const GET_PARAMETERS: Record<string, string[]> = {
  '/public/images/:signature': ['url'],
  '/oauth/v2/token': [
    'grant_type',
    'client_id',
    'client_secret',
    'code',
    'redirect_uri',
    'refresh_token',
    'code_verifier',
  ],
  '/oauth/v2/auth': [
    'client_id',
    'redirect_uri',
    'response_type',
    'state',
    'scope',
    'code_challenge',
    'code_challenge_method',
  ],
  '/security/verify-email': ['code'],
  // The merchant's way back from a storefront charge (an HTML page for bad values).
  '/billing/storefront/return': ['checkout', 'charge_id'],
  // Items addressed by code: these pick one when several workspaces have the code.
  '/fields/:code': ['entity', 'workspace'],
  '/fields_layouts/:code': ['workspace'],
};

/** Accept headers no route serves. */
const BAD_ACCEPTS = ['application/xml', 'image/png', 'text/plain; charset=utf-8'];

/** Bodies that are not JSON, sent as JSON. */
const NOT_JSON = ['{"title":', 'nope', "{'a': 1}", '{"a": 1}}', '\u0000'];
/** JSON that is not an object. */
const NOT_OBJECT = ['[]', '[{}]', '"text"', '42', 'null', 'true'];
/** Content types we do not read (JSON inside). */
const BAD_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'image/png',
  'application/json; charset=iso-8859-1',
];

/** Kinds of body attributes, for the wrong-type values each gets. */
type FieldType =
  | 'string'
  | 'integer'
  | 'number'
  | 'decimal'
  | 'boolean'
  | 'object'
  | 'array'
  | 'string[]'
  | 'datetime'
  | 'iri'
  | 'iri[]'
  /** A to-one reference that also takes an object of its own (created with the record). */
  | 'iri|object'
  /** A query: an object of parameters or a query string. */
  | 'string|object'
  /** Read leniently by design (a provider's payload): anything but a 5xx. */
  | 'lenient';

interface Fixture {
  a: Tenant;
  b: Tenant;
  /** The first id of tenant A's records of a resource path. */
  id: (path: string) => string;
  hash: string;
  shipment: Record<string, any>;
  disposable: string[];
  order: Record<string, any>;
  status: Record<string, any>;
  /** A team membership of another user (the caller may change and remove it). */
  teamMemberId: string;
  mediaId: string;
  trackingPage: string;
  /** The tracking page's subdomain (its home: /track/{subdomain}). */
  subdomain: string;
  widget: string;
  themeUrl: string;
  themeId: string;
  client: { clientId: string; clientSecret: string };
  entityType: string;
  /** Code of one of A's custom fields (for `customFields.{code}`). */
  fieldCode: string;
  mediaFile: { dir: string; name: string };
  /** A signed image proxy URL of the walk shop's image. */
  image: { signature: string; url: string };
  /** A settled storefront checkout of A's team and its charge (its return answers a page). */
  storefrontCheckout: { id: string; chargeId: string };
  /** IRIs of tenant B's records, by collection. */
  otherTenant: Record<string, string>;
}

const WALK_FEED = 'sku,name,price\nW-1,Walk,1.00\n';

const WALK_CHECKPOINT = {
  id: 'walk-1',
  checkpointDate: '2024-01-02T03:04:05Z',
  status: 'in_transit',
};

/** A field's type, with the collection its ids or IRIs belong to (`iri:/workspaces`). */
type FieldSpec = FieldType | `${'iri' | 'iri[]'}:/${string}`;

interface CustomBody {
  /** A body the route accepts (the wrong-type cases change one attribute of it). */
  base: (f: Fixture) => Record<string, unknown>;
  fields: Record<string, FieldSpec>;
  /** Server-to-server callers trusted with every workspace (no tenant to cross). */
  trusted?: boolean;
}

/**
 * The action endpoints' bodies (resources' come from their declarations). Base bodies are
 * valid; destructive ones work on disposable records.
 */
const CUSTOM_BODIES: Record<string, CustomBody | CustomBody[]> = {
  'POST /team_members': {
    base: (f) => ({
      team: `/teams/${f.a.teamId}`,
      invitedEmail: 'walk-invited@example.test',
      teamAdmin: false,
      permissions: [{ workspaceId: f.a.workspaceId, accessLevel: 'read' }],
    }),
    fields: {
      team: 'iri:/teams',
      invitedEmail: 'string',
      teamAdmin: 'boolean',
      permissions: 'array',
    },
  },
  'PUT /team_members/:id': {
    base: () => ({ teamAdmin: false }),
    fields: { teamAdmin: 'boolean' },
  },
  'POST /subdomain/check': {
    base: () => ({ subdomain: 'walk-free-subdomain' }),
    fields: { subdomain: 'string' },
  },
  'POST /generate_tracking_page_link': {
    base: (f) => ({ trackingPageId: f.trackingPage, trackingNumber: f.shipment.trackingNumber }),
    fields: { trackingPageId: 'iri:/tracking_pages', trackingNumber: 'string', filter: 'object' },
  },
  'POST /generate_tracking_page_links': {
    base: (f) => ({ trackingPageId: f.trackingPage, filter: { id: [f.shipment.id] } }),
    fields: { trackingPageId: 'iri:/tracking_pages', filter: 'object' },
  },
  'POST /public/tracking_page_links/:hash/reviews': {
    base: () => ({ carrierScore: 5, productScore: 4, packagingScore: 3, comment: 'Fine' }),
    fields: {
      carrierScore: 'integer',
      productScore: 'integer',
      packagingScore: 'integer',
      score: 'integer',
      comment: 'string',
    },
  },
  'POST /notes/:id/attachments': {
    base: (f) => ({ media: `/media/${f.mediaId}` }),
    fields: { media: 'iri:/media' },
  },
  'POST /notifications/mark_as_read': {
    base: (f) => ({ ids: [f.id('/notifications')] }),
    fields: { ids: 'iri[]:/notifications' },
  },
  'POST /notifications/mark_all_as_read': {
    base: (f) => ({ userId: f.a.userId }),
    fields: { userId: 'iri:/users' },
  },
  'POST /statuses/check-references': {
    base: (f) => ({ workspaceId: f.a.workspaceId, statusId: f.status.id }),
    fields: { workspaceId: 'iri:/workspaces', statusId: 'iri:/statuses' },
  },
  'POST /statuses/migrate-references': {
    base: (f) => ({
      workspaceId: f.a.workspaceId,
      fromStatusId: f.status.id,
      toStatusId: f.status.id,
    }),
    fields: {
      workspaceId: 'iri:/workspaces',
      fromStatusId: 'iri:/statuses',
      toStatusId: 'iri:/statuses',
    },
  },
  'POST /check_tracking_numbers': [
    { base: (f) => ({ ids: [f.shipment.id] }), fields: { ids: 'iri[]:/shipments' } },
    {
      base: (f) => ({ workspaceId: f.a.workspaceId, trackingNumbers: [f.shipment.trackingNumber] }),
      fields: { workspaceId: 'iri:/workspaces', trackingNumbers: 'array' },
    },
  ],
  'POST /check_tracking_numbers_async': [
    { base: (f) => ({ ids: [f.shipment.id] }), fields: { ids: 'iri[]:/shipments' } },
    {
      base: (f) => ({ workspaceId: f.a.workspaceId, trackingNumbers: [f.shipment.trackingNumber] }),
      fields: { workspaceId: 'iri:/workspaces', trackingNumbers: 'array' },
    },
  ],
  'POST /tracking/ingest': [
    {
      base: (f) => ({ shipment: f.shipment['@id'], checkpoints: [WALK_CHECKPOINT] }),
      fields: { shipment: 'iri:/shipments', checkpoints: 'array' },
    },
    {
      base: (f) => ({
        trackingNumber: f.shipment.trackingNumber,
        workspace: f.a.workspaceId,
        checkpoints: [WALK_CHECKPOINT],
      }),
      fields: { trackingNumber: 'string', workspace: 'iri:/workspaces' },
    },
  ],
  'POST /oauth/v2/token': {
    base: () => ({ grant_type: 'client_credentials', client_id: 'walk', client_secret: 'walk' }),
    fields: {
      grant_type: 'string',
      client_id: 'string',
      client_secret: 'string',
      code: 'string',
      refresh_token: 'string',
      redirect_uri: 'string',
      code_verifier: 'string',
    },
  },
  'POST /oauth/v2/auth': {
    base: () => ({
      grant_type: 'authorization_code',
      code: 'walk',
      redirect_uri: 'https://a.example/cb',
      client_id: 'walk',
      client_secret: 'walk',
    }),
    fields: {
      grant_type: 'string',
      code: 'string',
      redirect_uri: 'string',
      client_id: 'string',
      client_secret: 'string',
    },
  },
  'POST /oauth_clients': {
    base: () => ({ name: 'Walk app', redirectUris: ['https://walk.example/cb'] }),
    fields: { name: 'string', redirectUris: 'string[]' },
  },
  'POST /workspace_permissions_batch': {
    base: (f) => ({
      inviteMode: false,
      changes: [
        {
          email: 'walk-member@example.test',
          permissions: [{ workspaceId: f.a.workspaceId, accessLevel: 'read' }],
        },
      ],
    }),
    fields: { inviteMode: 'boolean', changes: 'array' },
  },
  'POST /security/signup': {
    base: () => ({ email: 'walk-signup@example.test', password: 'a long walk password' }),
    fields: { email: 'string', password: 'string', invitationCode: 'string' },
  },
  'POST /security/verify-email': { base: () => ({ code: 'walk' }), fields: { code: 'string' } },
  'POST /security/resend-email': {
    base: () => ({ email: 'walk-signup@example.test' }),
    fields: { email: 'string' },
  },
  'POST /security/forgot-password/send-email': {
    base: () => ({ email: 'walk-signup@example.test' }),
    fields: { email: 'string' },
  },
  'POST /security/forgot-password/reset': {
    base: () => ({ code: 'walk', newPassword: 'a long walk password' }),
    fields: { code: 'string', newPassword: 'string' },
  },
  'POST /security/lookup-team-name': {
    base: () => ({ email: 'walk-signup@example.test', code: 'walk' }),
    fields: { email: 'string', code: 'string' },
  },
  'POST /shipments/lookup': {
    base: (f) => ({ trackingNumber: f.shipment.trackingNumber, workspaceId: f.a.workspaceId }),
    fields: {
      trackingNumber: 'string',
      orderNumber: 'string',
      email: 'string',
      phoneNumber: 'string',
      query: 'string',
      workspaceId: 'iri:/workspaces',
    },
  },
  'POST /orders/lookup': {
    base: (f) => ({ orderNumber: f.order.orderNumber, workspaceId: f.a.workspaceId }),
    fields: {
      trackingNumber: 'string',
      orderNumber: 'string',
      email: 'string',
      phoneNumber: 'string',
      query: 'string',
      workspaceId: 'iri:/workspaces',
    },
  },
  'POST /change_status_batch': [
    {
      base: (f) => ({ entity: 'shipments', ids: [f.shipment.id], statusId: f.status.id }),
      fields: {
        entity: 'string',
        ids: 'iri[]:/shipments',
        statusId: 'iri:/statuses',
        workspaceId: 'iri:/workspaces',
      },
    },
    {
      base: (f) => ({ entity: 'shipments', ids: [f.shipment.id], status: f.status.code }),
      fields: { status: 'string' },
    },
  ],
  'POST /change_status_batch_async': [
    {
      base: (f) => ({ entity: 'shipments', ids: [f.shipment.id], statusId: f.status.id }),
      fields: {
        entity: 'string',
        ids: 'iri[]:/shipments',
        statusId: 'iri:/statuses',
        workspaceId: 'iri:/workspaces',
      },
    },
    {
      base: (f) => ({ entity: 'shipments', ids: [f.shipment.id], status: f.status.code }),
      fields: { status: 'string' },
    },
  ],
  'POST /delete_records_batch': {
    base: (f) => ({ entity: 'shipments', ids: [f.disposable[0]] }),
    fields: { entity: 'string', ids: 'iri[]:/shipments', workspaceId: 'iri:/workspaces' },
  },
  'POST /shipments/merge': {
    base: (f) => ({ target: f.shipment.id, shipments: [f.disposable[1]] }),
    fields: { target: 'iri:/shipments', shipments: 'iri[]:/shipments' },
  },
  'POST /export': {
    base: (f) => ({ entity: 'shipments', workspaceId: f.a.workspaceId, format: 'csv' }),
    fields: {
      entity: 'string',
      workspaceId: 'iri:/workspaces',
      filters: 'string|object',
      params: 'array',
      format: 'string',
    },
  },
  // A report on the feed alone: no team is involved.
  'POST /products_feed/verify': {
    base: () => ({ feed: WALK_FEED }),
    fields: { feed: 'string', feedType: 'string' },
  },
  'POST /products_feed/import': [
    {
      base: (f) => ({ team: `/teams/${f.a.teamId}`, feed: WALK_FEED }),
      fields: { team: 'iri:/teams', feed: 'string', feedType: 'string' },
    },
    {
      base: (f) => ({ trackingPageId: f.trackingPage, feed: WALK_FEED }),
      fields: { trackingPageId: 'iri:/tracking_pages' },
    },
  ],
  'POST /workflows/execute': {
    base: (f) => ({ workspace: `/workspaces/${f.a.workspaceId}` }),
    fields: { workspace: 'iri:/workspaces' },
  },
  'POST /workflows/submit-suggestion': {
    base: () => ({ comment: 'A walk integration' }),
    fields: { comment: 'string' },
  },
  'POST /email_notifications/preview': [
    {
      base: (f) => ({ id: f.id('/email_notifications') }),
      fields: { id: 'iri:/email_notifications', shipment: 'iri:/shipments' },
    },
    {
      base: (f) => ({ workspace: f.a.workspaceId, event: 'shipment.status_changed' }),
      fields: {
        workspace: 'iri:/workspaces',
        event: 'string',
        subject: 'string',
        body: 'string',
        shipment: 'iri:/shipments',
      },
    },
  ],
  'POST /email_notifications/send_test': {
    base: (f) => ({
      workspace: f.a.workspaceId,
      event: 'shipment.status_changed',
      email: 'walk-test@example.test',
    }),
    fields: {
      workspace: 'iri:/workspaces',
      event: 'string',
      subject: 'string',
      body: 'string',
      shipment: 'iri:/shipments',
      email: 'string',
    },
  },
  'POST /email_notifications/reset_defaults': [
    { base: (f) => ({ id: f.a.workspaceId }), fields: { id: 'iri:/workspaces' } },
    { base: (f) => ({ workspace: f.a.workspaceId }), fields: { workspace: 'iri:/workspaces' } },
  ],
  'POST /public/widgets/:id/lookup': [
    {
      base: (f) => ({ trackingNumber: f.shipment.trackingNumber }),
      fields: { trackingNumber: 'string' },
    },
    {
      base: (f) => ({ orderNumber: f.order.orderNumber, email: 'walk@example.test' }),
      fields: { orderNumber: 'string', email: 'string' },
    },
  ],
  'POST /imports/pre-upload': {
    base: (f) => ({
      workspace: `/workspaces/${f.a.workspaceId}`,
      entity: 'shipments',
      content: 'trackingNumber\nTM102WALKPRE1TM\n',
    }),
    // The mapping is chosen on the import itself, from this preview.
    fields: { workspace: 'iri:/workspaces', entity: 'string', content: 'string' },
  },
  'POST /imports': {
    base: (f) => ({
      workspace: `/workspaces/${f.a.workspaceId}`,
      entity: 'shipments',
      content: 'trackingNumber\nTM102WALKIMP1TM\n',
    }),
    fields: {
      workspace: 'iri:/workspaces',
      entity: 'string',
      content: 'string',
      mapping: 'object',
    },
  },
  'POST /billing/subscribe_to_trial': {
    base: (f) => ({ teamId: f.a.teamId }),
    fields: { teamId: 'iri:/teams' },
  },
  'POST /billing/billing_provider/create_session': {
    base: (f) => ({ teamId: f.a.teamId, redirectUrl: 'https://walk.example/back' }),
    fields: { teamId: 'iri:/teams', redirectUrl: 'string' },
  },
  'POST /billing/billing_provider/created_hosted_page_checkout': {
    base: (f) => ({ teamId: f.a.teamId, planId: 'pro', addonsQtyByKey: {} }),
    fields: {
      teamId: 'iri:/teams',
      planId: 'string',
      addonsQtyByKey: 'object',
      redirectUrl: 'string',
    },
  },
  'POST /billing/billing_provider/downgrade_subscription': {
    base: (f) => ({ teamId: f.a.teamId, planId: 'pro' }),
    fields: { teamId: 'iri:/teams', planId: 'string' },
  },
  'POST /billing/billing_provider/get_subscription_estimate': {
    base: (f) => ({ teamId: f.a.teamId, planId: 'pro', addonsQtyByKey: {} }),
    fields: { teamId: 'iri:/teams', planId: 'string', addonsQtyByKey: 'object' },
  },
  'POST /billing/billing_provider/webhook': {
    base: () => ({ id: 'ev_walk', event_type: 'subscription_created', occurred_at: 1700000000 }),
    // The provider's events are read leniently (an unknown shape is recorded as ignored).
    fields: { id: 'string', event_type: 'lenient', occurred_at: 'lenient', content: 'lenient' },
  },
  'POST /public/tracking_webhooks/:provider/:credentialsId': {
    // A tracking provider's push: signed, read leniently (a shape it does not know is no update).
    base: () => ({ event: 'TRACKING_UPDATED', data: {} }),
    fields: { event: 'lenient', data: 'lenient' },
  },
  'POST /public/store_webhooks/:type/:workflowId': {
    // A store's webhook: its proof over the raw bytes decides (no such store workflow: 404).
    base: () => ({ id: 5001, updated_at: '2024-05-01T00:00:00Z' }),
    fields: { id: 'lenient', updated_at: 'lenient' },
  },
  'POST /public/tracking_webhooks/:provider/:credentialsId/token': {
    // A provider's OAuth token request (RFC 6749 client credentials): the adapter judges it.
    base: () => ({ grant_type: 'client_credentials', client_id: 'walk', client_secret: 'walk' }),
    fields: { grant_type: 'string', client_id: 'string', client_secret: 'string' },
  },
  'POST /billing/storefront/checkout_subscription': {
    base: (f) => ({ teamId: f.a.teamId, planId: 'pro', returnUrl: 'https://walk.example/b' }),
    fields: { teamId: 'iri:/teams', planId: 'string', returnUrl: 'string' },
  },
  'POST /billing/storefront/webhook': {
    // An unknown charge: recorded with its outcome, read leniently like the provider's events.
    base: () => ({
      id: 'evt_walk',
      topic: 'recurring_charges/update',
      occurredAt: '2024-01-02T03:04:05Z',
      charge: { id: 'walk-charge-unknown', status: 'active' },
    }),
    fields: {
      id: 'string',
      topic: 'lenient',
      occurredAt: 'lenient',
      tokenId: 'lenient',
      charge: 'lenient',
    },
  },
  'POST /integration/storefront/register': {
    base: () => ({
      tokenId: 'walk-token',
      firstName: 'Walk',
      lastName: 'Er',
      email: 'walk-register@example.test',
      team: 'Walk team',
      workspace: 'Walk store',
      subdomain: 'walk-register',
      plainPassword: 'a long walk password',
    }),
    fields: {
      tokenId: 'string',
      firstName: 'string',
      lastName: 'string',
      email: 'string',
      team: 'string',
      workspace: 'string',
      subdomain: 'string',
      plainPassword: 'string',
    },
  },
  'POST /integration-secure/storefront/workspace': {
    base: (f) => ({ tokenId: 'walk-token', workspaceId: f.a.workspaceId }),
    fields: { tokenId: 'string', workspaceId: 'iri:/workspaces' },
    trusted: true,
  },
  'POST /integration-secure/marketing_provider/workspace': {
    base: (f) => ({ tokenId: 'walk-token', workspaceId: f.a.workspaceId, accountName: 'Walk' }),
    fields: { tokenId: 'string', workspaceId: 'iri:/workspaces', accountName: 'string' },
    trusted: true,
  },
  'POST /domain/verify': {
    base: () => ({ domain: 'track.walk.example.test' }),
    fields: { domain: 'string' },
  },
  'POST /public/generate-theme': {
    // The walk's own shop page (THEME_FETCH_ALLOWED_HOSTS), reused once made.
    base: (f) => ({ url: f.themeUrl, reuse: true }),
    fields: { url: 'string', reuse: 'boolean' },
  },
  'POST /track/:subdomain': [
    {
      base: (f) => ({ by: 'trackingNumber', trackingNumber: f.shipment.trackingNumber }),
      fields: { trackingNumber: 'string', lang: 'string', tz: 'string' },
    },
    {
      base: (f) => ({ by: 'order', orderNumber: f.order.orderNumber, contact: 'w@example.test' }),
      fields: { orderNumber: 'string', contact: 'string', by: 'string' },
    },
  ],
  'POST /test/load-fixtures': {
    base: () => ({ dataset: 'demo' }),
    fields: { dataset: 'string', content: 'object' },
  },
};

/** Routes that take no body: whatever is sent is ignored (they may answer 2xx to anything). */
const BODYLESS = new Set([
  'POST /team_members/:id/resend_invite',
  'POST /tracking_pages/:id/regenerate_custom_theme',
]);

/**
 * Answers that are not hydra errors by design: the OAuth token endpoint's RFC 6749 JSON, and
 * the HTML pages of the authorization flow (a browser is on the other end).
 */
const OAUTH_JSON_ERRORS = /^\/oauth\/v2\/(token|auth)$/;
const HTML_ROUTES = new Set([
  'GET /oauth/v2/auth',
  'POST /oauth/v2/auth',
  'GET /t/:hash',
  'GET /track/:subdomain',
  'POST /track/:subdomain',
  'GET /security/verify-email',
  'GET /billing/storefront/return',
]);

/**
 * Routes that read their body before anything else can refuse it with their own 4xx: the
 * OAuth endpoints (RFC 6749 errors: an unreadable body is a request without credentials) and
 * the signed billing webhook (no JSON bytes, no valid signature: 403).
 */
const OWN_BODY_ERRORS = new Set([
  'POST /oauth/v2/token',
  'POST /oauth/v2/auth',
  'POST /billing/billing_provider/webhook',
  // A browser form: whatever body it cannot read is an incomplete search (HTML 4xx).
  'POST /track/:subdomain',
]);

/** Routes whose accepted requests send mail after answering (MailDispatcher). */
const SENDS_MAIL =
  /^POST \/(security\/|team_members|workspace_permissions_batch|email_notifications\/send_test|integration\/storefront\/register)/;

/** Upload routes: JSON bodies are not read at all (415). */
const MULTIPART_ONLY = new Set(['POST /media']);

/** Dependencies switched off in this server's configuration (documented 503s, not input errors). */
const UNCONFIGURED = new Set([
  'No billing provider is configured on this server.',
  'No storefront app is configured on this server.',
]);

/**
 * GET routes that ignore Accept by design: files (downloads, uploaded media), the
 * documentation UI and its assets, health probes, pages.
 */
const ANY_ACCEPT = [
  /^\/docs/,
  // Asked for by browsers and crawlers with whatever Accept they send.
  /^\/(robots\.txt|favicon\.ico)$/,
  /^\/health/,
  /^\/media\/files\//,
  /^\/public\/images\//,
  /^\/exports\/:id\/download$/,
  /^\/t\//,
  /^\/track\//,
  /^\/oauth\/v2\//,
  /^\/security\/verify-email$/,
  /^\/billing\/billing_provider\/webhook$/,
  /^\/billing\/storefront\/(webhook|return)$/,
  /^\/public\/tracking_webhooks\//,
  /^\/public\/store_webhooks\//,
];

/** Routes called as their callers do: without a token (the others with tenant A's). */
const ANONYMOUS = [
  /^\/public\//,
  /^\/security\//,
  /^\/oauth\/v2\//,
  /^\/t\//,
  /^\/track\//,
  /^\/media\/files\//,
  /^\/integration(-secure)?\//,
  /^\/billing\/billing_provider\/webhook$/,
  /^\/billing\/storefront\/(webhook|return)$/,
];

type Expect = number[] | 'client' | 'any';

interface Case {
  /** Route pattern (`GET /shipments/:id`), for grouping and reports. */
  route: string;
  family: string;
  method: string;
  /** Path and query as sent (already percent-encoded). */
  path: string;
  accept?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  expect: Expect;
  /** Safe: must change nothing whatever it answers. Otherwise only a refusal must not. */
  safe: boolean;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}
// A walk visits every route, each in several ways: minutes on a loaded machine, not 60 s.
jest.setTimeout(300_000);

describe('bad-input walk: every route, malformed input, a tenant with records of every kind', () => {
  let app: NestExpressApplication;
  let registry: ResourceRegistry;
  let db: DataSource;
  let base: URL;
  let agent: http.Agent;
  let shop: http.Server;
  let f: Fixture;
  let routes: RouteCase[];
  /** Resource -> ids of A's records (and the first rows of the public catalogues). */
  const recordsOfA = new Map<ResourceMeta, string[]>();
  /** Resource -> a POST body that made one of A's records. */
  const postBodies = new Map<ResourceMeta, Record<string, unknown>>();
  /** What the current test found wrong. */
  let failures: string[] = [];
  /** Every answer of the walk, checked against the OpenAPI description last. */
  let answers: RecordedAnswer[] = [];

  beforeAll(async () => {
    shop = http.createServer((req, res) => {
      if (req.url === '/walk.png') {
        res.writeHead(200, { 'Content-Type': 'image/png' });
        return void res.end(PNG);
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Walk shop</title></head><body><h1>Walk</h1></body></html>');
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    app = await createTestApp({ listen: true });
    answers = recordAnswers(app);
    registry = app.get(ResourceRegistry);
    db = app.get(DataSource);
    base = new URL(testAppUrl(app));
    agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    routes = walkableRoutes(app);
    f = await makeFixture();
    await installAudit();
  }, 120_000);

  afterAll(async () => {
    try {
      if (db?.isInitialized) {
        await removeAudit();
        // Later spec files of this worker share the database: leave no used-up budgets.
        await resetRateLimits();
      }
    } finally {
      agent?.destroy();
      await closeTestApp(app);
      await new Promise((resolve) => shop?.close(resolve));
    }
  });

  beforeEach(() => {
    failures = [];
  });

  const byPath = (path: string) => registry.all().find((r) => r.path === path)!;

  // ---------------------------------------------------------------- records of every kind

  async function makeFixture(): Promise<Fixture> {
    const a = await createTenant(app, { workspaceTitle: 'Walk store' });
    const b = await createTenant(app, { workspaceTitle: 'Other store' });
    const member = await joinTeam(app, a, 'member', [a.workspaceId]);
    const client = await createClient(app, a, {
      name: 'Walk app',
      redirectUris: ['https://a.example/cb'],
    });
    const status = await createStatus(app, a, { code: 'walk_status', title: 'Walk status' });
    const shipment = await createShipment(app, a, { email: 'walk@example.test' });
    const disposable = [
      (await createShipment(app, a)).id as string,
      (await createShipment(app, a)).id as string,
    ];
    const order = await createOrder(app, a, { email: 'walk@example.test' });
    const orderItem = await createOrderItem(app, a, order['@id'], { qty: 50 });
    const shipmentItem = await createShipmentItem(app, a, {
      shipment: shipment['@id'],
      orderItem: orderItem['@id'],
      qty: 1,
    });
    const workspaceIri = `/workspaces/${a.workspaceId}`;
    const workflowBody = {
      title: 'Walk hook',
      type: 'webhook',
      workspace: workspaceIri,
      enabled: true,
      period: 'manual',
      credentials: {
        type: 'webhook',
        team: null,
        parameters: { url: 'https://hooks.example.com/walk' },
        secrets: { signingSecret: 'whsec_0123456789abcdef' },
      },
    };
    const workflow = await api(app, { token: a.token })
      .post('/workflows', workflowBody)
      .expect(201);
    // Runs are only made by deliveries; one as the delivery worker writes it.
    await db.query(
      `INSERT INTO workflow_run (workflow_id, workspace_id, status, started_at) VALUES ($1, $2, 'success', now())`,
      [workflow.body.id, a.workspaceId],
    );
    const known = new Map<ResourceMeta, string>([
      [byPath('/workflows'), workflow.body.id],
      [byPath('/statuses'), status.id],
      [byPath('/shipments'), shipment.id],
      [byPath('/orders'), order.id],
      [byPath('/order_items'), orderItem.id],
      [byPath('/shipment_items'), shipmentItem.id],
    ]);
    // What the factories sent, for the kinds they made.
    postBodies.set(byPath('/teams'), { name: 'Walk second team' });
    postBodies.set(byPath('/workflows'), workflowBody);
    postBodies.set(byPath('/workspaces'), { team: `/teams/${a.teamId}`, title: 'Walk second' });
    postBodies.set(byPath('/statuses'), {
      workspace: workspaceIri,
      entity: 'shipments',
      code: 'walk_base',
      title: 'Walk base',
    });
    postBodies.set(byPath('/shipments'), {
      workspace: workspaceIri,
      trackingNumber: testTrackingNumber(),
    });
    postBodies.set(byPath('/orders'), {
      workspace: workspaceIri,
      orderNumber: 'WALK-BASE-1',
      orderType: 'customer',
    });
    postBodies.set(byPath('/order_items'), {
      order: order['@id'],
      productName: 'Jacket',
      qty: 1,
      price: '10',
    });
    postBodies.set(byPath('/shipment_items'), {
      shipment: shipment['@id'],
      orderItem: orderItem['@id'],
      qty: 1,
    });
    const created = await createEveryResourceFor(app, registry, a, known, postBodies);
    const as = api(app, { token: a.token });
    const trackingPage = `/tracking_pages/${created.get(byPath('/tracking_pages'))}`;
    await as.put(trackingPage, { reviewsEnabled: true, enabled: true }).expect(200);
    const widget = created.get(byPath('/widgets'))!;
    await as.put(`/widgets/${widget}`, { enabled: true }).expect(200);
    const media = await upload(app, a.token, undefined, 'walk.png', {
      workspace: workspaceIri,
    }).expect(201);
    const [dir, name] = String(media.body.filePath).split('/').slice(-2);
    const note = created.get(byPath('/notes'))!;
    await as.post(`/notes/${note}/attachments`, { media: media.body['@id'] }).expect(201);
    const link = await as
      .post('/generate_tracking_page_link', {
        trackingPageId: trackingPage,
        trackingNumber: shipment.trackingNumber,
      })
      .expect(201);
    const hash = String(link.body.link).split('/').pop()!;
    // Reviews are for delivered shipments.
    await db.query(`UPDATE shipment SET tracking_status = 'delivered' WHERE id = $1`, [
      shipment.id,
    ]);
    await api(app).post(`/public/tracking_page_links/${hash}/reviews`, { score: 5 }).expect(201);
    await as.post('/export', { entity: 'shipments' }).expect(200);
    await as
      .post('/change_status_batch_async', {
        entity: 'shipments',
        ids: [shipment.id],
        statusId: status.id,
      })
      .expect(200);
    await as
      .post('/imports', {
        workspace: workspaceIri,
        content: `trackingNumber\n${testTrackingNumber()}\n`,
      })
      .expect((res) => expect(res.status).toBeLessThan(300));
    await as
      .post('/tracking/ingest', {
        shipment: shipment['@id'],
        checkpoints: [{ id: 'cp-1', checkpointDate: '2024-01-02T03:04:05Z', status: 'in_transit' }],
      })
      .expect(200);
    await as
      .post(`/public/widgets/${widget}/lookup`, { trackingNumber: shipment.trackingNumber })
      .expect(200);
    const themeUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/`;
    const theme = await api(app).post('/public/generate-theme', { url: themeUrl }).expect(201);
    // A storefront checkout the merchant declined: its return answers without a call (a page:
    // its returnUrl is not this service's, nor a verified domain of the team).
    const [storefrontCheckout] = await db.query(
      `INSERT INTO billing_checkout (team_id, user_id, provider, plan_id, external_id, url,
              return_url, installation, status, completed_at)
       VALUES ($1, $2, 'storefront', 'pro', $3, 'https://walk.example/confirm',
               'https://walk.example/back', 'walk-token', 'declined', now())
       RETURNING id, external_id`,
      [a.teamId, a.userId, `walk-charge-${a.teamId}`],
    );
    await app.get(NotificationsService).notify({ userId: a.userId, tag: 'walk', message: 'Walk' });

    // Whatever A can see, of every kind (and the first rows of the public catalogues).
    const principal = (await app.get(PrincipalLoader).forUser(a.userId))!;
    const data = app.get(DataProvider);
    for (const resource of registry.all()) {
      const result = await data.list({
        resource,
        principal,
        params: QueryParams.fromUrl(`${resource.path}?itemsPerPage=5`),
      });
      recordsOfA.set(
        resource,
        result.members.map((m) => String(m[resource.idProperty])),
      );
    }
    // Tenant B's records: references to them are someone else's.
    const bShipment = await createShipment(app, b);
    const bStatus = await createStatus(app, b, { code: 'other_status', title: 'Other' });
    const bOrder = await createOrder(app, b);
    const bItem = await createOrderItem(app, b, bOrder['@id']);
    const fixture: Fixture = {
      a,
      b,
      id: (path) => recordsOfA.get(byPath(path))?.[0] ?? NO_SUCH_UUID,
      hash,
      shipment,
      disposable,
      order,
      status,
      teamMemberId: member.teamMemberId,
      mediaId: media.body.id,
      trackingPage,
      subdomain: (
        await db.query(`SELECT subdomain FROM tracking_page WHERE id = $1`, [
          trackingPage.split('/').pop(),
        ])
      )[0].subdomain,
      widget,
      themeUrl,
      themeId: theme.body.themeId,
      client,
      entityType: (await api(app, { token: a.token }).get('/entity_types').expect(200)).body[
        'hydra:member'
      ][0].id,
      fieldCode: created.get(byPath('/fields'))!,
      mediaFile: { dir, name },
      image: {
        signature: app
          .get(RemoteImages)
          .pathFor(a.workspaceId, `${themeUrl}walk.png`)!
          .split(/[/?]/)[3],
        url: `${themeUrl}walk.png`,
      },
      storefrontCheckout: {
        id: storefrontCheckout.id,
        chargeId: storefrontCheckout.external_id,
      },
      otherTenant: {
        '/workspaces': `/workspaces/${b.workspaceId}`,
        '/teams': `/teams/${b.teamId}`,
        '/users': `/users/${b.userId}`,
        '/shipments': bShipment['@id'],
        '/statuses': bStatus['@id'],
        '/orders': bOrder['@id'],
        '/order_items': bItem['@id'],
      },
    };
    return fixture;
  }

  // ---------------------------------------------------------------- change detection

  /** Tables whose rows change on refused requests by design. */
  const AUDIT_EXEMPT = new Set([
    // Rate limits count every attempt, refused ones too: that is what a limit is.
    'rate_limit_counter',
    // The every-route budgets count every request (README "API conventions"); a POST's
    // Idempotency-Key keeps its answer, a refusal too, so that a retry is answered the same.
    'api_rate_counter',
    'idempotency_key',
    // Every widget lookup, answered or refused, is logged (WidgetLookupService).
    'widget_log',
    // pg-boss's own bookkeeping (maintenance and cron timestamps) moves on its own schedule.
    'version',
    // A list read that summed many count deltas folds them into one row (hydra maintained
    // counts): the rows change, no count does.
    'maintained_count',
  ]);

  /** A row trigger on every table records each INSERT, UPDATE and DELETE while the walk runs. */
  async function installAudit(): Promise<void> {
    await db.query(`CREATE TABLE walk_audit (id bigserial PRIMARY KEY, tbl text, op text)`);
    await db.query(`CREATE FUNCTION walk_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO walk_audit (tbl, op) VALUES (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, TG_OP);
        RETURN NULL;
      END $$`);
    const tables = await auditedTables();
    for (const t of tables) {
      if (AUDIT_EXEMPT.has(t.name)) continue;
      await db.query(
        `CREATE TRIGGER walk_audit AFTER INSERT OR UPDATE OR DELETE ON "${t.schema}"."${t.name}"
           FOR EACH ROW EXECUTE FUNCTION walk_audit_row()`,
      );
    }
  }

  /** Tables and partitioned tables (their partitions inherit the trigger). */
  function auditedTables(): Promise<Array<{ schema: string; name: string }>> {
    return db.query(
      `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND n.nspname IN ('public', 'pgboss') AND c.relname <> 'walk_audit'`,
    );
  }

  /** The worker's database outlives this file: leave it as it was. */
  async function removeAudit(): Promise<void> {
    const tables = await auditedTables();
    for (const t of tables)
      await db.query(`DROP TRIGGER IF EXISTS walk_audit ON "${t.schema}"."${t.name}"`);
    await db.query(`DROP FUNCTION IF EXISTS walk_audit_row() CASCADE`);
    await db.query(`DROP TABLE IF EXISTS walk_audit`);
  }

  /**
   * Waits until the work an accepted request leaves running after its answer (mail: queued as
   * a job, sent, the job completed) has written: no change for three polls in a row.
   */
  async function settled(): Promise<void> {
    let mark = await auditMark();
    for (let stable = 0, i = 0; stable < 3 && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const now = await auditMark();
      stable = now === mark ? stable + 1 : 0;
      mark = now;
    }
  }

  async function resetRateLimits(): Promise<void> {
    await db.query(`DELETE FROM rate_limit_counter`);
  }

  async function auditMark(): Promise<number> {
    const [row] = await db.query(`SELECT coalesce(max(id), 0)::int AS id FROM walk_audit`);
    return row.id;
  }

  async function changesSince(mark: number): Promise<string[]> {
    const rows: Array<{ tbl: string; op: string; n: number }> = await db.query(
      `SELECT tbl, op, count(*)::int AS n FROM walk_audit WHERE id > $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [mark],
    );
    return rows.map((r) => `${r.op} ${r.tbl} x${r.n}`);
  }

  // ---------------------------------------------------------------- HTTP

  /** One request, sent as is (paths and queries already percent-encoded). */
  function send(c: Case): Promise<Answer> {
    const headers: Record<string, string | number> = { Accept: c.accept ?? JSON_LD };
    const routePath = c.route.slice(c.route.indexOf(' ') + 1);
    if (!ANONYMOUS.some((p) => p.test(routePath))) headers.Authorization = `Bearer ${f.a.token}`;
    if (c.path.startsWith('/integration-secure/'))
      headers['X-Integration-Secret'] = INTEGRATION_SECRET;
    if (c.body !== undefined) {
      headers['Content-Length'] = Buffer.byteLength(c.body);
      if (c.path.startsWith('/billing/billing_provider/webhook'))
        headers['X-Billing-Signature'] =
          `sha256=${createHmac('sha256', BILLING_WEBHOOK_SECRET).update(c.body).digest('hex')}`;
      if (c.path.startsWith('/billing/storefront/webhook'))
        headers['X-Storefront-Hmac-Sha256'] = createHmac('sha256', STOREFRONT_WEBHOOK_SECRET)
          .update(c.body)
          .digest('base64');
    }
    Object.assign(headers, c.headers);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: base.hostname, port: base.port, method: c.method, path: c.path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(c.body);
    });
  }

  async function pool<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < items.length) await fn(items[next++]);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }

  /** Sends a case and records what is wrong with its answer. */
  async function check(c: Case): Promise<Answer | null> {
    const label = `${c.route} [${c.family}] ${c.method} ${shorten(c.path)}`;
    let res: Answer;
    try {
      res = await send(c);
    } catch (error) {
      failures.push(`${label} -> connection error ${(error as Error).message}`);
      return null;
    }
    const problem = judge(c, res);
    if (problem) failures.push(`${label} -> ${res.status} ${problem}: ${shorten(res.text, 300)}`);
    return res;
  }

  function judge(c: Case, res: Answer): string | null {
    if (res.status === 429) return 'rate limited: the request never reached the route';
    // README "API conventions": every answer tells the client its budget.
    if (!res.headers['ratelimit-policy'] || !res.headers['x-ratelimit-remaining'])
      return 'no rate-limit headers';
    if (res.status === 503 && c.expect === 'any' && UNCONFIGURED.has(description(res))) return null;
    if (res.status >= 500) return 'server error';
    if (res.status >= 400) {
      const format = errorFormatProblem(c, res);
      if (format) return format;
    }
    if (c.expect === 'any') return null;
    if (c.expect === 'client')
      return res.status >= 400 && res.status < 500 ? null : 'expected a 4xx';
    return c.expect.includes(res.status) ? null : `expected ${c.expect.join('/')}`;
  }

  function description(res: Answer): string {
    try {
      return String(JSON.parse(res.text)['hydra:description'] ?? '');
    } catch {
      return '';
    }
  }

  /** What is wrong with an error answer's format; null when it is the documented one. */
  function errorFormatProblem(c: Case, res: Answer): string | null {
    const type = String(res.headers['content-type'] ?? '');
    const routePath = c.route.slice(c.route.indexOf(' ') + 1);
    if (HTML_ROUTES.has(c.route) && type.startsWith('text/html')) return null;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(res.text);
    } catch {
      return `error body is not JSON (${type})`;
    }
    if (OAUTH_JSON_ERRORS.test(routePath)) {
      if (typeof body.error === 'string')
        return type.startsWith('application/json') ? null : `OAuth error as ${type}`;
      // A readable request the token endpoint refuses is refused the RFC 6749 way.
      if (/^(field|parameter): /.test(c.family) && [400, 401].includes(res.status))
        return 'not an OAuth error';
    }
    const isText = (v: unknown) => typeof v === 'string' && v.length > 0;
    const violationsOk = (v: unknown) =>
      Array.isArray(v) &&
      v.length > 0 &&
      v.every(
        (x: Record<string, unknown>) =>
          typeof x.propertyPath === 'string' &&
          isText(x.message) &&
          (x.code === null || typeof x.code === 'string'),
      );
    if (c.accept === PLAIN_JSON) {
      if (!type.startsWith('application/problem+json')) return `problem as ${type}`;
      if (body.title !== 'An error occurred' || !isText(body.detail) || !isText(body.type))
        return 'malformed problem+json';
      if (body.status !== res.status) return `problem+json status ${String(body.status)}`;
      if (res.status === 422 && !violationsOk(body.violations)) return '422 without violations';
      return null;
    }
    if (!type.startsWith('application/ld+json')) return `error as ${type}`;
    if (body['hydra:title'] !== 'An error occurred' || !isText(body['hydra:description']))
      return 'malformed hydra error';
    if (res.status === 422) {
      if (
        body['@context'] !== '/contexts/ConstraintViolationList' ||
        body['@type'] !== 'ConstraintViolationList' ||
        !violationsOk(body.violations)
      )
        return '422 is not a ConstraintViolationList';
      return null;
    }
    if (body['@context'] !== '/contexts/Error' || body['@type'] !== 'hydra:Error')
      return 'not a hydra:Error';
    if (body['hydra:description'] === 'Internal Server Error') return '4xx named a server error';
    return null;
  }

  // ---------------------------------------------------------------- routes and their ids

  const key = (r: RouteCase) => `${r.method} ${r.path}`;
  const resourceOfItem = (path: string) =>
    registry.all().find((r) => path === `${r.path}/:id` || path === `${r.path}/:code`);
  const resourceOfCollection = (path: string) =>
    registry
      .all()
      .find((r) => r.path === path || (r.options.nested ?? []).some((n) => n.path === path));

  /** A real value for each `:param` of a route (encoded). */
  function realParams(route: RouteCase): Record<string, string> {
    const kinds = paramKinds(registry, route);
    const out: Record<string, string> = {};
    for (const [, param] of route.path.matchAll(/:(\w+)/g)) {
      const kind = kinds.get(param);
      let value = kind ? recordsOfA.get(kind)?.[0] : undefined;
      if (route.path.startsWith('/contexts/')) value = 'Shipment';
      if (param === 'hash') value = f.hash;
      if (param === 'subdomain') value = f.subdomain;
      if (route.path.startsWith('/media/files/'))
        value = param === 'dir' ? f.mediaFile.dir : f.mediaFile.name;
      if (route.path.startsWith('/public/widgets/')) value = f.widget;
      if (route.path.startsWith('/public/generate-theme/')) value = f.themeId;
      if (route.path.startsWith('/public/images/')) value = f.image.signature;
      if (route.path.startsWith('/team_members/:id')) value = f.teamMemberId;
      if (route.path.startsWith('/entity_types/')) value = f.entityType;
      out[param] = encodeURIComponent(value ?? NO_SUCH_UUID);
    }
    return out;
  }

  function fill(route: RouteCase, params: Record<string, string>): string {
    return route.path.replace(/:(\w+)/g, (_m, p: string) => params[p]);
  }

  /** What a GET route needs besides its ids to answer 200. */
  function validQuery(path: string): string {
    switch (path) {
      case '/oauth/v2/token':
        return `grant_type=client_credentials&client_id=${f.client.clientId}&client_secret=${f.client.clientSecret}`;
      case '/oauth/v2/auth':
        return `client_id=${f.client.clientId}&redirect_uri=${encodeURIComponent('https://a.example/cb')}&response_type=code&state=walk`;
      case '/security/verify-email':
        return 'code=walk';
      case '/public/images/:signature':
        return `url=${encodeURIComponent(f.image.url)}`;
      case '/billing/storefront/return':
        return `checkout=${f.storefrontCheckout.id}&charge_id=${encodeURIComponent(f.storefrontCheckout.chargeId)}`;
      default:
        return REQUIRED_QUERY[path] ?? '';
    }
  }

  /** A GET route's own parameters with bad values, arrays and maps (the others valid). */
  function parameterCases(route: RouteCase): Case[] {
    const names =
      GET_PARAMETERS[route.path] ??
      Object.keys(
        REQUIRED_QUERY[route.path] ? { [REQUIRED_QUERY[route.path].split('=')[0]]: 1 } : {},
      );
    const valid = new URLSearchParams(validQuery(route.path));
    const cases: Case[] = [];
    for (const name of names) {
      const others = [...valid]
        .filter(([k]) => k !== name)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
      const bad: Array<[string, string]> = [
        ...BAD_QUERY_VALUES.map(([family, value]): [string, string] => [
          family,
          `${name}=${value}`,
        ]),
        ['array', `${name}%5B%5D=a&${name}%5B%5D=b`],
        ['map', `${name}%5Bx%5D=a`],
      ];
      for (const [family, query] of bad)
        cases.push({
          route: key(route),
          family: `parameter: ${name} ${family}`,
          method: 'GET',
          path: `${fill(route, realParams(route))}?${[...others, query].join('&')}`,
          // A required parameter without a usable value is a bad request.
          expect: REQUIRED_QUERY[route.path] ? [400] : 'any',
          safe: !route.path.startsWith('/oauth/v2/token'),
        });
    }
    return cases;
  }

  const json = (v: unknown) => JSON.stringify(v);

  // ---------------------------------------------------------------- the cases

  /** Every `:param` of a route in turn gets ids of nothing; the others stay real. */
  function idCases(route: RouteCase): Case[] {
    const params = realParams(route);
    const cases: Case[] = [];
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
    for (const name of Object.keys(params)) {
      for (const [family, bad] of BAD_IDS) {
        cases.push({
          route: key(route),
          family: `path id: ${name} ${family}`,
          method: route.method,
          path: fill(route, { ...params, [name]: bad }),
          body: hasBody ? '{}' : undefined,
          headers: hasBody ? { 'Content-Type': JSON_LD } : undefined,
          // Unknown ids are 404 everywhere, whatever else the request gets wrong; a segment
          // that is not even percent-decodable is a malformed URL (400 from the router).
          expect: UNDECODABLE.has(family)
            ? [400, 404]
            : VALUE_PARAMS.has(key(route))
              ? [200, 422]
              : [404],
          safe: route.method === 'GET',
        });
      }
    }
    return cases;
  }

  function acceptCases(route: RouteCase): Case[] {
    if (ANY_ACCEPT.some((p) => p.test(route.path))) return [];
    return BAD_ACCEPTS.map((accept) => ({
      route: key(route),
      family: `accept: ${accept}`,
      method: route.method,
      path: fill(route, realParams(route)),
      accept,
      expect: [406],
      safe: true,
    }));
  }

  /**
   * Query strings for a collection route with real parent ids, from its hydra:search: every
   * variable with every bad value on a resource's own collection route (its nested routes
   * share the filters; they get every variable at once), unknown parameters, pagination.
   */
  async function queryCases(route: RouteCase, body?: string): Promise<Case[]> {
    const required = REQUIRED_QUERY[route.path];
    const path = fill(route, realParams(route)) + (required ? `?${required}` : '');
    const join = required ? '&' : '?';
    const headers = body === undefined ? undefined : { 'Content-Type': JSON_LD };
    const make = (family: string, query: string, expect: Expect): Case => ({
      route: key(route),
      family,
      method: route.method,
      path: query ? `${path}${join}${query}` : path,
      body,
      headers,
      expect,
      safe: true,
    });
    const first = await send(make('baseline', '', 'any'));
    if (first.status !== 200) {
      failures.push(`${key(route)} baseline -> ${first.status}: ${shorten(first.text, 200)}`);
      return [];
    }
    const search = JSON.parse(first.text)['hydra:search'] as
      { 'hydra:mapping': Array<{ variable: string }> } | undefined;
    const resource = resourceOfCollection(route.path) ?? resourceOfLookup(route.path);
    if (resource?.filters.length && !search) failures.push(`${key(route)}: no hydra:search`);
    const variables = (search?.['hydra:mapping'] ?? [])
      .map((m) => m.variable.replace('{code}', f.fieldCode))
      .filter((v) => !required?.startsWith(`${v}=`));
    const cases: Case[] = [];
    const ownRoute = route.method === 'POST' || resource?.path === route.path;
    for (const variable of ownRoute ? variables : []) {
      const name = encodeKey(variable);
      for (const [family, value] of BAD_QUERY_VALUES)
        cases.push(make(`query: ${variable} ${family}`, `${name}=${value}`, [200]));
      // An array where a scalar is expected, a map where neither is, a scalar for an array.
      cases.push(make(`query: ${variable} as array`, `${name}%5B%5D=sideways`, [200]));
      cases.push(make(`query: ${variable} as map`, `${name}%5Bx%5D=sideways`, [200]));
      if (variable.endsWith('[]'))
        cases.push(
          make(`query: ${variable} as scalar`, `${encodeKey(variable.slice(0, -2))}=%00`, [200]),
        );
    }
    // Every variable garbage at once, in every format (CSV streams from a cursor).
    if (variables.length) {
      for (const [family, value] of BAD_QUERY_VALUES.slice(0, 4)) {
        const all = variables.map((v) => `${encodeKey(v)}=${value}`).join('&');
        const formats = route.method === 'POST' ? [JSON_LD, PLAIN_JSON] : ALL_FORMATS;
        for (const accept of formats)
          cases.push({ ...make(`query: all ${family} as ${accept}`, all, [200]), accept });
      }
    }
    for (const query of UNKNOWN_QUERIES)
      cases.push(make(`query: unknown ${query.slice(0, 20)}`, query, [200]));
    for (const [query, status] of PAGINATION) {
      cases.push(make(`query: ${query}`, query, [status]));
      if (status === 400)
        cases.push({ ...make(`query: ${query} as JSON`, query, [status]), accept: PLAIN_JSON });
    }
    return cases;
  }

  function resourceOfLookup(path: string): ResourceMeta | undefined {
    const m = /^(\/\w+)\/lookup$/.exec(path);
    return m ? byPath(m[1]) : undefined;
  }

  /** Syntax, top-level type and media type: the same for every route with a body. */
  function bodyShapeCases(route: RouteCase, path: string): Case[] {
    const cases: Case[] = [];
    const reads = !BODYLESS.has(key(route));
    const c = (family: string, body: string, contentType: string, expect: Expect): Case => ({
      route: key(route),
      family,
      method: route.method,
      path,
      body,
      headers: { 'Content-Type': contentType },
      expect,
      safe: false,
    });
    const jsonType = route.method === 'PATCH' ? MERGE_PATCH : JSON_LD;
    for (const body of NOT_JSON) {
      cases.push(c(`body: not JSON ${json(body)}`, body, jsonType, [400]));
      cases.push({
        ...c(`body: not JSON ${json(body)} as JSON`, body, PLAIN_JSON, [400]),
        accept: PLAIN_JSON,
      });
    }
    // JSON that is not an object: the parser refuses scalars (400), the route the rest.
    const notObject: Expect = MULTIPART_ONLY.has(key(route)) ? [400, 415] : reads ? [400] : 'any';
    for (const body of NOT_OBJECT)
      cases.push(c(`body: top-level ${body}`, body, jsonType, notObject));
    const badType: Expect = OWN_BODY_ERRORS.has(key(route)) ? 'client' : reads ? [415] : 'any';
    for (const type of BAD_CONTENT_TYPES)
      cases.push(c(`body: content-type ${type}`, '{"a":1}', type, badType));
    cases.push(c('body: empty', '', jsonType, 'any'));
    cases.push({ ...c('body: no content-type', '{"a":1}', jsonType, 'any'), headers: {} });
    return cases;
  }

  /** The writable attributes of a resource operation, with their types. */
  function resourceFields(resource: ResourceMeta, op: 'post' | 'put'): Record<string, FieldSpec> {
    const out: Record<string, FieldSpec> = {};
    for (const p of resource.properties) {
      if (!p.writable.has(op)) continue;
      const target =
        p.target && registry.all().some((r) => r.target === p.target)
          ? registry.get(p.target).path
          : undefined;
      const type = fieldType(p, op);
      out[p.name] =
        target && (type === 'iri' || type === 'iri|object' || type === 'iri[]')
          ? (`${type}:${target}` as FieldSpec)
          : type;
    }
    return out;
  }

  function fieldType(p: PropertyMeta, op: 'post' | 'put'): FieldType {
    if (p.kind === 'reference')
      return p.options.acceptObjectOn?.includes(op) ? 'iri|object' : 'iri';
    if (p.kind === 'collection') return 'iri[]';
    if (p.kind === 'embedded' || p.kind === 'object') return 'object';
    if (p.type === 'array') return p.items === 'string' ? 'string[]' : 'array';
    return p.type as FieldType;
  }

  /** Values a field must not take, as [family, value, must be refused]. */
  function wrongValues(
    name: string,
    spec: FieldSpec,
    trusted = false,
  ): Array<[string, unknown, boolean]> {
    const [type, targetPath] = spec.split(':') as [FieldType, string | undefined];
    const iriBase = targetPath ?? '/workspaces';
    const plain: Array<[string, unknown]> = [
      ['string', 'walk'],
      ['integer', 12],
      ['float', 1.5],
      ['boolean', true],
      ['object', { a: 1 }],
      ['array', ['a']],
    ];
    // JSON types each field takes (strings are tried separately where they may be valid).
    const takes: Record<FieldType, string[]> = {
      string: ['string'],
      integer: ['integer'],
      number: ['integer', 'float'],
      decimal: ['integer', 'float', 'string'],
      boolean: ['boolean'],
      object: ['object'],
      array: ['array'],
      'string[]': ['array'],
      datetime: ['string'],
      iri: ['string'],
      'iri[]': [],
      'iri|object': ['string', 'object'],
      'string|object': ['string', 'object'],
      lenient: [],
    };
    const out: Array<[string, unknown, boolean]> = plain
      .filter(([kind]) => !takes[type].includes(kind))
      .map(([kind, value]) => [`${kind} for ${type}`, value, type !== 'lenient']);
    out.push(['null', null, false]);
    const quantity = /qty|quantity|score/i.test(name);
    switch (type) {
      case 'string':
        out.push(
          ['10k chars', LONG, false],
          ['NUL', 'a\u0000b', false],
          ['unicode', '☃🚚\u202e', false],
        );
        break;
      case 'integer':
      case 'number':
        out.push(
          ['huge', 1e308, type === 'integer'],
          ['above int32', 2 ** 31, false],
          ['unsafe integer', 2 ** 53 + 2, type === 'integer'],
          ['negative', -1, quantity],
          ['numeric string', '1', true],
        );
        break;
      case 'decimal':
        out.push(
          ['huge', 1e308, false],
          ['20 digits', '99999999999999999999', true],
          ['exponent string', '1e400', true],
          ['word', 'abc', true],
          ['negative', '-1', false],
        );
        break;
      case 'datetime':
        out.push(
          ['bad date', '2020-13-45', true],
          ['words', 'yesterday', true],
          ['far future', '+275760-09-13T00:00:00.000Z', false],
          ['far past', '-271821-04-20T00:00:00.000Z', false],
        );
        break;
      case 'iri':
      case 'iri|object': {
        out.push(
          ['garbage IRI', 'not-an-iri', true],
          ['IRI without uuid', `${iriBase}/not-a-uuid`, true],
          ['unknown IRI', `${iriBase}/${NO_SUCH_UUID}`, true],
          ['NUL IRI', `${iriBase}/\u0000`, true],
          ['10k IRI', `${iriBase}/${LONG}`, true],
        );
        const other = registry
          .all()
          .find((r) => r.path !== iriBase && r.idIsUuid && recordsOfA.get(r)?.length);
        if (other)
          out.push(['IRI of another kind', `${other.path}/${recordsOfA.get(other)![0]}`, true]);
        const foreign = f.otherTenant[iriBase];
        if (foreign && !trusted) out.push(['IRI of another tenant', foreign, true]);
        break;
      }
      case 'iri[]':
        out.push(
          ['string', 'walk', true],
          ['garbage IRIs', ['not-an-iri'], true],
          ['unknown IRIs', [`${iriBase}/${NO_SUCH_UUID}`], true],
          ['numbers', [1], true],
          ['objects', [{}], true],
          ['nulls', [null], true],
          ['nested arrays', [['x']], true],
          ['10k IRIs', [LONG], true],
        );
        if (f.otherTenant[iriBase])
          out.push(['IRIs of another tenant', [f.otherTenant[iriBase]], true]);
        break;
      case 'string[]':
        out.push(
          ['numbers', [1], true],
          ['objects', [{}], true],
          ['nulls', [null], true],
          ['10k chars', [LONG], false],
        );
        break;
      case 'array':
        out.push(
          ['numbers', [1], false],
          ['objects', [{ a: [] }], false],
          ['nulls', [null], false],
        );
        break;
      case 'object':
      case 'string|object':
        out.push(['deep object', { a: { b: { c: [1, { d: null }] } } }, false]);
        break;
      case 'lenient':
        out.push(['huge', 1e308, false], ['10k chars', LONG, false], ['NUL', 'a\u0000b', false]);
        break;
    }
    return out;
  }

  /** Each attribute in turn gets each wrong value; the rest of the body stays valid. */
  function fieldCases(
    route: RouteCase,
    path: string,
    baseBody: Record<string, unknown>,
    fields: Record<string, FieldSpec>,
    trusted = false,
  ): Case[] {
    const cases: Case[] = [];
    const c = (family: string, body: Record<string, unknown>, expect: Expect): Case => ({
      route: key(route),
      family,
      method: route.method,
      path,
      body: json(body),
      headers: { 'Content-Type': JSON_LD },
      expect,
      safe: false,
    });
    let firstRefused: Record<string, unknown> | undefined;
    for (const [name, spec] of Object.entries(fields)) {
      for (const [family, value, refused] of wrongValues(name, spec, trusted)) {
        const body = { ...baseBody, [name]: value };
        if (refused) firstRefused ??= body;
        cases.push(c(`field: ${name} ${family}`, body, refused ? 'client' : 'any'));
      }
    }
    const unknown = { ...baseBody, zzUnknown: 1, '@id': '/x', '@type': 'Nope', id: 'garbage' };
    cases.push(c('field: unknown attributes', unknown, 'any'));
    if (firstRefused)
      cases.push({
        ...c('field: refused, as JSON', firstRefused, 'client'),
        accept: PLAIN_JSON,
        headers: { 'Content-Type': PLAIN_JSON },
      });
    const routePath = route.path;
    if (!ANY_ACCEPT.some((p) => p.test(routePath)))
      cases.push({ ...c('accept: on a write', baseBody, [406]), accept: 'application/xml' });
    return cases;
  }

  /** An upload with form fields (`file` unless null). */
  function multipart(fields: Record<string, string>, file: Buffer | null): [string, Buffer] {
    const boundary = 'walk-boundary-7e0c5a1e';
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields))
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        ),
      );
    if (file)
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="walk.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        file,
        Buffer.from('\r\n'),
      );
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return [`multipart/form-data; boundary=${boundary}`, Buffer.concat(parts)];
  }

  /** Uploads: no file, an empty one, bad form fields. */
  function multipartCases(route: RouteCase, path: string): Case[] {
    const workspace = `/workspaces/${f.a.workspaceId}`;
    const table: Array<[string, Record<string, string>, Buffer | null, Expect]> = [
      ['no file', { workspace }, null, 'client'],
      ['empty file', { workspace }, Buffer.alloc(0), 'any'],
      ['garbage workspace', { workspace: 'not-an-iri' }, PNG, 'client'],
      ['unknown workspace', { workspace: `/workspaces/${NO_SUCH_UUID}` }, PNG, 'client'],
      ['other tenant workspace', { workspace: `/workspaces/${f.b.workspaceId}` }, PNG, 'client'],
      ['NUL workspace', { workspace: '/workspaces/\u0000' }, PNG, 'client'],
      ['10k name', { workspace, fileOriginalName: LONG }, PNG, 'any'],
      ['NUL name', { workspace, fileOriginalName: 'a\u0000b' }, PNG, 'any'],
    ];
    return table.map(([family, fields, file, expect]) => {
      const [type, body] = multipart(fields, file);
      return {
        route: key(route),
        family: `multipart: ${family}`,
        method: route.method,
        path,
        body,
        headers: { 'Content-Type': type },
        expect,
        safe: false,
      };
    });
  }

  function writeCases(route: RouteCase): Case[] {
    const path = fill(route, realParams(route));
    const cases = bodyShapeCases(route, path);
    const custom = CUSTOM_BODIES[key(route)];
    if (custom) {
      for (const form of [custom].flat())
        cases.push(...fieldCases(route, path, form.base(f), form.fields, form.trusted));
      return cases;
    }
    if (MULTIPART_ONLY.has(key(route))) return cases.concat(multipartCases(route, path));
    const op = route.method === 'POST' ? 'post' : 'put';
    const resource = op === 'post' ? resourceOfCollection(route.path) : resourceOfItem(route.path);
    const fields = resource ? resourceFields(resource, op) : {};
    if (!Object.keys(fields).length) {
      if (!BODYLESS.has(key(route))) failures.push(`${key(route)}: no body known (CUSTOM_BODIES)`);
      return cases;
    }
    const baseBody = op === 'post' ? (postBodies.get(resource!) ?? {}) : {};
    return cases.concat(fieldCases(route, path, baseBody, fields));
  }

  // ---------------------------------------------------------------- the walk

  it('has routes, records of every kind, and real ids that answer', async () => {
    expect(routes.length).toBeGreaterThan(200);
    const missing = registry
      .all()
      .filter((r) => !recordsOfA.get(r)?.length)
      .map((r) => r.path);
    expect(missing).toEqual([]);
    // Every GET with real ids answers, so that the bad ids below are the only thing wrong.
    const broken: string[] = [];
    await pool(
      routes.filter((r) => r.method === 'GET'),
      async (route) => {
        // The Swagger UI's static files come with its package (some are not shipped).
        if (/^\/docs\/./.test(route.path)) return;
        const query = validQuery(route.path);
        const path = fill(route, realParams(route)) + (query ? `?${query}` : '');
        const res = await send({
          route: key(route),
          family: 'baseline',
          method: 'GET',
          path,
          expect: 'any',
          safe: true,
        });
        // An export's file is downloadable once the (here switched off) job wrote it.
        const notReady = route.path === '/exports/:id/download' && res.status === 409;
        if (res.status >= 400 && !notReady) broken.push(`${key(route)} ${path} -> ${res.status}`);
      },
    );
    expect(broken).toEqual([]);
  });

  it('answers every malformed read with a 4xx in the documented format, and changes nothing', async () => {
    const mark = await auditMark();
    const cases: Case[] = [];
    for (const route of routes) {
      if (route.method !== 'GET') continue;
      cases.push(...idCases(route), ...acceptCases(route), ...parameterCases(route));
      if (resourceOfCollection(route.path)) cases.push(...(await queryCases(route)));
    }
    for (const path of ['/shipments/lookup', '/orders/lookup'])
      cases.push(
        ...(await queryCases(
          { method: 'POST', path },
          json([CUSTOM_BODIES[`POST ${path}`]].flat()[0].base(f)),
        )),
      );
    // Reads run together and must change nothing at all; the few that may (a token issued
    // through GET) one at a time, and only a refusal must change nothing.
    await pool(
      cases.filter((c) => c.safe),
      async (c) => void (await check(c)),
    );
    const changed = await changesSince(mark);
    for (const c of cases.filter((x) => !x.safe)) {
      const before = await auditMark();
      const res = await check(c);
      const after = await changesSince(before);
      if (res && res.status >= 400 && after.length)
        changed.push(`${c.route} [${c.family}] ${res.status} changed ${after.join(', ')}`);
    }
    expect({ changed, failures }).toEqual({ changed: [], failures: [] });
    expect(cases.length).toBeGreaterThan(1000);
  }, 120_000);

  it('answers every malformed write with a 4xx in the documented format; a refused one changes nothing', async () => {
    const changed: string[] = [];
    let replays = 0;
    let total = 0;
    for (const route of routes) {
      if (!['POST', 'PUT', 'DELETE'].includes(route.method)) continue;
      const cases = idCases(route);
      if (route.method !== 'DELETE') cases.push(...writeCases(route));
      if (route.method === 'PUT') {
        const patch = { method: 'PATCH', path: route.path };
        for (const c of bodyShapeCases(patch, fill(route, realParams(route))))
          cases.push({ ...c, expect: [400, 405, 415] });
      }
      total += cases.length;
      // Cases that must be refused run together; the others one at a time, so that a
      // change is pinned on the request that made it.
      const mustRefuse = (c: Case) =>
        c.expect === 'client' || (Array.isArray(c.expect) && c.expect.every((s) => s >= 400));
      const refused = cases.filter(mustRefuse);
      const others = cases.filter((c) => !mustRefuse(c));
      const limited = RATE_LIMITED.test(key(route));
      const chunk = limited ? RATE_LIMIT_CHUNK : refused.length;
      const mark = await auditMark();
      for (let i = 0; i < refused.length; i += chunk) {
        if (limited) await resetRateLimits();
        await pool(refused.slice(i, i + chunk), async (c) => void (await check(c)));
      }
      const changes = await changesSince(mark);
      if (changes.length)
        changed.push(`${key(route)}: refused requests changed ${changes.join(', ')}`);
      for (const [i, c] of others.entries()) {
        if (limited && i % RATE_LIMIT_CHUNK === 0) await resetRateLimits();
        // Every POST carries an Idempotency-Key and is sent twice: the retry changes nothing.
        const idempotencyKey = c.method === 'POST' ? `walk-${++replays}` : undefined;
        if (idempotencyKey) c.headers = { ...c.headers, 'Idempotency-Key': idempotencyKey };
        const before = await auditMark();
        const res = await check(c);
        if (res && idempotencyKey && res.status < 500) {
          // The first request's mail may fall back to a queued job a moment after its answer:
          // let that land before the replay is watched (twice: a loaded machine is slow).
          if (SENDS_MAIL.test(key(route))) {
            await settled();
            await new Promise((resolve) => setTimeout(resolve, 200));
            await settled();
          }
          if (limited) await resetRateLimits();
          const mark = await auditMark();
          const again = await send(c);
          const after = await changesSince(mark);
          if (after.length)
            changed.push(`${key(route)} [${c.family}] replayed POST changed ${after.join(', ')}`);
          // Answered once the key was claimed: replayed; refused before it (415, unreadable
          // JSON): refused again the same way.
          if (again.status !== res.status)
            failures.push(
              `${key(route)} [${c.family}] replay answered ${again.status}, first ${res.status}`,
            );
          else if (res.status < 300 && again.headers['idempotent-replayed'] !== 'true')
            failures.push(`${key(route)} [${c.family}] ${res.status} not replayed`);
        }
        if (res && res.status >= 400) {
          const after = await changesSince(before);
          if (after.length)
            changed.push(`${key(route)} [${c.family}] ${res.status} changed ${after.join(', ')}`);
        } else if (res) {
          if (SENDS_MAIL.test(key(route))) await settled();
        }
      }
    }
    expect({ changed, failures }).toEqual({ changed: [], failures: [] });
    expect(total).toBeGreaterThan(1000);
  }, 240_000);

  it('answered everything as the OpenAPI description says: status, media type and schema', () => {
    expect(answers.length).toBeGreaterThan(1000);
    expect(answerProblems(app, answers)).toEqual([]);
  });
});

function encodeKey(variable: string): string {
  return variable.replace(/\[/g, '%5B').replace(/\]/g, '%5D');
}

function shorten(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;
}
