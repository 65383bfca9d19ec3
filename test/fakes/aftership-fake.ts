import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/**
 * AfterShip Tracking API 2025-01 on loopback (carrier-apis.md section 2): `as-api-key` auth,
 * the `{meta, data}` envelope with AfterShip's meta codes, flat tracking bodies, one tracking
 * per create (4003 when it exists), the list with its comma-separated `tracking_numbers`
 * filter and cursor pagination, mark-as-completed, DELETE /trackings/{id}, 429 with the X-RateLimit-* headers, and
 * webhook deliveries signed `aftership-hmac-sha256` = base64(HMAC-SHA256(secret, raw body)).
 */
export const AFTERSHIP_FAKE_VERSION = '2025-01';
/** Numbers the fake accepts in one `tracking_numbers` filter (the adapter's batch size). */
export const AFTERSHIP_FAKE_MAX_LIST_NUMBERS = 50;
/** Slugs the fake knows; a create naming another gets 4010. */
export const AFTERSHIP_FAKE_SLUGS = new Set([
  'ups',
  'fedex',
  'usps',
  'dhl',
  'dhl-global-mail',
  'china-post',
  'china-ems',
  'royal-mail',
  'deutsch-post',
  'la-poste-colissimo',
  'canada-post',
  'yunexpress',
]);

export type AfterShipTracking = Record<string, unknown> & {
  id: string;
  tracking_number: string;
  slug: string;
};

export interface AfterShipFake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly webhookSecret: string;
  /** Insert or replace (by number and slug) what AfterShip knows; returns the stored object. */
  setTracking(fields: Partial<AfterShipTracking> & { tracking_number: string }): AfterShipTracking;
  findTracking(trackingNumber: string, slug?: string): AfterShipTracking | undefined;
  readonly trackings: AfterShipTracking[];
  /** The next request answers 429 (per-endpoint limit hit), resetting in `seconds`. */
  rateLimitNext(seconds?: number): void;
  /** A webhook delivery of this tracking as AfterShip sends it (secret: the fake's own). */
  signedDelivery(
    tracking: AfterShipTracking,
    options?: { event?: string; secret?: string },
  ): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

export async function startAfterShipFake(
  options: { apiKey?: string; webhookSecret?: string } = {},
): Promise<AfterShipFake> {
  const server = await startFakeProviderServer();
  const apiKey = options.apiKey ?? `asat_${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? randomBytes(16).toString('hex');
  const trackings: AfterShipTracking[] = [];
  const base = `/tracking/${AFTERSHIP_FAKE_VERSION}`;

  const findTracking = (trackingNumber: string, slug?: string) =>
    trackings.find(
      (t) => t.tracking_number === trackingNumber && (slug === undefined || t.slug === slug),
    );

  const store = (tracking: AfterShipTracking): AfterShipTracking => {
    const at = trackings.findIndex(
      (t) => t.tracking_number === tracking.tracking_number && t.slug === tracking.slug,
    );
    if (at >= 0) trackings[at] = tracking;
    else trackings.push(tracking);
    server.on('POST', `${base}/trackings/${tracking.id}/mark-as-completed`, (req) =>
      authorized(req, () => markCompleted(tracking.id, req)),
    );
    server.on('DELETE', `${base}/trackings/${tracking.id}`, (req) =>
      authorized(req, () => remove(tracking.id)),
    );
    return tracking;
  };

  const setTracking: AfterShipFake['setTracking'] = (fields) => {
    const existing = findTracking(fields.tracking_number, fields.slug);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return store({
      ...(existing ?? {
        id: randomBytes(16).toString('hex'),
        slug: fields.slug ?? detectSlug(fields.tracking_number),
        active: true,
        tag: 'Pending',
        subtag: 'Pending_001',
        checkpoints: [],
        created_at: now,
        return_to_sender: false,
      }),
      updated_at: now,
      ...fields,
    } as AfterShipTracking);
  };

  const authorized = (req: FakeRequest, then: () => FakeResponse): FakeResponse => {
    if (req.headers['as-api-key'] !== apiKey) {
      return envelope(401, 401, 'Invalid API key.', 'Unauthorized', {});
    }
    return then();
  };

  const markCompleted = (id: string, req: FakeRequest): FakeResponse => {
    const tracking = trackings.find((t) => t.id === id);
    if (!tracking) return envelope(404, 4004, 'Tracking does not exist.', 'NotFound', {});
    const reason = (req.body as { reason?: unknown } | undefined)?.reason;
    if (!['DELIVERED', 'LOST', 'RETURNED_TO_SENDER'].includes(String(reason))) {
      return envelope(400, 4008, 'The value of `reason` is invalid.', 'BadRequest', {});
    }
    const updated = store({
      ...tracking,
      active: false,
      ...(reason === 'DELIVERED' ? { tag: 'Delivered', subtag: 'Delivered_001' } : {}),
    });
    return envelope(200, 200, '', 'OK', updated);
  };

  /** DELETE /trackings/{id}: the tracking is gone (a later GET or DELETE is 404). */
  const remove = (id: string): FakeResponse => {
    const at = trackings.findIndex((t) => t.id === id);
    if (at < 0) return envelope(404, 4004, 'Tracking does not exist.', 'NotFound', {});
    const [removed] = trackings.splice(at, 1);
    return envelope(200, 200, '', 'OK', removed);
  };

  server.on('POST', `${base}/trackings`, (req) =>
    authorized(req, () => {
      const body = req.body as Record<string, unknown> | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return envelope(400, 4001, 'Invalid JSON data.', 'BadRequest', {});
      }
      // 2024-07+ bodies are flat: a legacy {"tracking": {...}} body has no tracking_number.
      const number = body.tracking_number;
      if (typeof number !== 'string' || number === '') {
        return envelope(400, 4007, '`tracking_number` is required.', 'BadRequest', {});
      }
      if (!/^[A-Za-z0-9-]{5,50}$/.test(number)) {
        return envelope(400, 4017, 'The format of `tracking_number` is invalid.', 'BadRequest', {});
      }
      const slug = body.slug;
      if (slug !== undefined && (typeof slug !== 'string' || !AFTERSHIP_FAKE_SLUGS.has(slug))) {
        return envelope(400, 4010, 'The value of `slug` is invalid.', 'BadRequest', {});
      }
      const resolved = typeof slug === 'string' ? slug : detectSlug(number);
      const existing = findTracking(number, resolved);
      if (existing) {
        return envelope(400, 4003, 'Tracking already exists.', 'BadRequest', existing);
      }
      return envelope(
        201,
        201,
        '',
        'Created',
        setTracking({ tracking_number: number, slug: resolved }),
      );
    }),
  );

  server.on('GET', `${base}/trackings`, (req) =>
    authorized(req, () => {
      const filter = req.query.get('tracking_numbers');
      const numbers = filter === null ? null : filter.split(',').filter((n) => n !== '');
      if (numbers !== null && numbers.length > AFTERSHIP_FAKE_MAX_LIST_NUMBERS) {
        return envelope(400, 4008, 'The value of `tracking_numbers` is invalid.', 'BadRequest', {});
      }
      const limit = Number(req.query.get('limit') ?? 100);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
        return envelope(400, 4008, 'The value of `limit` is invalid.', 'BadRequest', {});
      }
      const matching = trackings.filter(
        (t) => numbers === null || numbers.includes(t.tracking_number),
      );
      const start = Number(req.query.get('cursor') ?? 0);
      const page = matching.slice(start, start + limit);
      const next = start + limit < matching.length ? String(start + limit) : null;
      return envelope(200, 200, '', 'OK', {
        trackings: page,
        pagination: { total: matching.length, next_cursor: next, has_next_page: next !== null },
      });
    }),
  );

  return {
    server,
    baseUrl: server.baseUrl,
    apiKey,
    webhookSecret,
    trackings,
    setTracking,
    findTracking,
    rateLimitNext: (seconds = 1) =>
      server.failNext({
        status: 429,
        headers: {
          'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + seconds),
          'X-RateLimit-Limit': '6',
          'X-RateLimit-Remaining': '0',
        },
        body: {
          meta: { code: 429, message: 'Too many requests.', type: 'TooManyRequests' },
          data: {},
        },
      }),
    signedDelivery: (tracking, opts = {}) => {
      const body = JSON.stringify({
        ts: Math.floor(Date.now() / 1000),
        event: opts.event ?? 'tracking_update',
        event_id: randomUUID(),
        is_tracking_first_tag: false,
        msg: tracking,
      });
      const signature = createHmac('sha256', opts.secret ?? webhookSecret)
        .update(body)
        .digest('base64');
      return {
        headers: { 'Content-Type': 'application/json', 'aftership-hmac-sha256': signature },
        body,
      };
    },
    close: () => server.close(),
  };
}

function envelope(
  status: number,
  code: number,
  message: string,
  type: string,
  data: unknown,
): FakeResponse {
  return { status, body: { meta: { code, message, type }, data } };
}

/** AfterShip detects the courier from the number when no slug is given. */
function detectSlug(number: string): string {
  if (/^1Z[0-9A-Z]{16}$/i.test(number)) return 'ups';
  if (/^9[0-9]{21}$/.test(number)) return 'usps';
  if (/^[0-9]{12}$/.test(number)) return 'fedex';
  if (/^[0-9]{10}$/.test(number)) return 'dhl';
  if (/^[A-Z]{2}[0-9]{9}CN$/.test(number)) return 'china-post';
  if (/^[A-Z]{2}[0-9]{9}GB$/.test(number)) return 'royal-mail';
  return 'unrecognized';
}
