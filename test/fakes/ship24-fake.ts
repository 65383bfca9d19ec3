import { randomBytes, randomUUID } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/**
 * Ship24 Tracking API on loopback (carrier-apis.md section 3): `Authorization: Bearer <key>`
 * (missing: 400 auth_missing_header, malformed: 400 auth_invalid_header, wrong: 401
 * auth_invalid_api_key), `{errors, data}` error bodies, bulk tracker creation of at most 100
 * items (201 all created or existing, 207 partial, 400 none / invalid request), results by
 * tracking number (404 tracker_not_found), tracker updates by id (`PATCH /trackers/{trackerId}`,
 * e.g. `{isSubscribed: false}` to unsubscribe; 404 tracker_not_found, 400 validation_error),
 * 429 with Retry-After, and webhook deliveries authenticated with the webhook secret as a
 * Bearer token.
 */
export const SHIP24_FAKE_BULK_LIMIT = 100;
const TRACKING_NUMBER = /^[a-zA-Z0-9-_/.]{5,50}$/;

export interface Ship24Tracking {
  tracker: Record<string, unknown> & { trackerId: string; trackingNumber: string };
  shipment: Record<string, unknown>;
  events: Record<string, unknown>[];
  statistics: Record<string, unknown>;
}

export interface Ship24Fake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly webhookSecret: string;
  /** Trackers created, by tracking number. */
  readonly trackings: Map<string, Ship24Tracking>;
  /** Set what Ship24 knows of a number (creates its tracker when needed). */
  setTracking(
    trackingNumber: string,
    data: {
      courierCode?: string[];
      shipment?: Record<string, unknown>;
      events?: Record<string, unknown>[];
    },
  ): Ship24Tracking;
  /** The next request answers 429 with Retry-After. */
  rateLimitNext(seconds?: number): void;
  /** The PATCH requests trackers received (unsubscriptions), in order. */
  trackerPatches(): FakeRequest[];
  /** A webhook delivery of these trackings as Ship24 sends it (secret: the fake's own). */
  signedDelivery(
    trackings: Ship24Tracking[],
    options?: { secret?: string },
  ): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

export async function startShip24Fake(
  options: { apiKey?: string; webhookSecret?: string } = {},
): Promise<Ship24Fake> {
  const server = await startFakeProviderServer();
  const apiKey = options.apiKey ?? `apik_${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? randomBytes(16).toString('hex');
  const trackings = new Map<string, Ship24Tracking>();

  const ensure = (trackingNumber: string, courierCode: string[] = []): Ship24Tracking => {
    const existing = trackings.get(trackingNumber);
    if (existing) return existing;
    const tracking: Ship24Tracking = {
      tracker: {
        trackerId: randomUUID(),
        trackingNumber,
        shipmentReference: null,
        courierCode,
        clientTrackerId: null,
        isSubscribed: true,
        isTracked: true,
        createdAt: new Date().toISOString(),
      },
      shipment: {
        shipmentId: randomUUID(),
        statusCode: null,
        statusCategory: null,
        statusMilestone: 'pending',
        originCountryCode: null,
        destinationCountryCode: null,
        delivery: {
          estimatedDeliveryDate: null,
          courierEstimatedDeliveryDate: null,
          service: null,
          signedBy: null,
        },
        trackingNumbers: [{ tn: trackingNumber }],
        recipient: null,
      },
      events: [],
      statistics: { timestamps: {} },
    };
    trackings.set(trackingNumber, tracking);
    server.on(
      'GET',
      `/public/v1/trackers/search/${encodeURIComponent(trackingNumber)}/results`,
      (req) => authorized(req, () => ({ status: 200, body: { data: { trackings: [tracking] } } })),
    );
    return tracking;
  };

  const authorized = (req: FakeRequest, then: () => FakeResponse): FakeResponse => {
    const header = req.headers.authorization;
    if (header === undefined) {
      return error(400, 'auth_missing_header', 'The Authorization header is missing.');
    }
    const match = /^Bearer (\S+)$/.exec(header);
    if (!match) return error(400, 'auth_invalid_header', 'The Authorization header is invalid.');
    if (match[1] !== apiKey) return error(401, 'auth_invalid_api_key', 'The API key is invalid.');
    return then();
  };

  server.on('POST', '/public/v1/trackers/bulk', (req) =>
    authorized(req, () => {
      if (!Array.isArray(req.body)) {
        return error(400, 'validation_error', 'The body must be an array of trackers.');
      }
      if (req.body.length === 0 || req.body.length > SHIP24_FAKE_BULK_LIMIT) {
        return error(
          400,
          'validation_error',
          `The body must contain between 1 and ${SHIP24_FAKE_BULK_LIMIT} trackers.`,
        );
      }
      const data = (req.body as unknown[]).map((input) => {
        const number = (input as { trackingNumber?: unknown } | null)?.trackingNumber;
        if (typeof number !== 'string' || !TRACKING_NUMBER.test(number)) {
          return {
            itemStatus: 'error',
            inputData: input,
            tracker: null,
            errors: [{ code: 'validation_error', message: 'trackingNumber is invalid.' }],
          };
        }
        const existed = trackings.has(number);
        const tracking = ensure(number);
        return {
          itemStatus: existed ? 'existing' : 'created',
          inputData: input,
          tracker: tracking.tracker,
          errors: [],
        };
      });
      const errors = data.filter((d) => d.itemStatus === 'error').length;
      const created = data.filter((d) => d.itemStatus === 'created').length;
      const status = errors === 0 ? 'success' : errors === data.length ? 'error' : 'partial';
      return {
        status: status === 'success' ? 201 : status === 'partial' ? 207 : 400,
        body: {
          status,
          summary: {
            totalInputs: data.length,
            totalCreated: created,
            totalExisting: data.length - created - errors,
            totalErrors: errors,
          },
          data,
          errors: null,
        },
      };
    }),
  );

  // Numbers without a tracker (exact routes serve the others).
  server.onPrefix('GET', '/public/v1/trackers/search/', (req) =>
    authorized(req, () => error(404, 'tracker_not_found', 'The tracker was not found.')),
  );

  server.onPrefix('PATCH', '/public/v1/trackers/', (req) =>
    authorized(req, () => {
      const trackerId = decodeURIComponent(req.path.slice('/public/v1/trackers/'.length));
      const tracking = [...trackings.values()].find((t) => t.tracker.trackerId === trackerId);
      if (trackerId.includes('/') || !tracking) {
        return error(404, 'tracker_not_found', 'The tracker was not found.');
      }
      const body = req.body as { isSubscribed?: unknown } | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return error(400, 'validation_error', 'The body must be an object.');
      }
      if ('isSubscribed' in body && typeof body.isSubscribed !== 'boolean') {
        return error(400, 'validation_error', 'isSubscribed must be a boolean.');
      }
      if (typeof body.isSubscribed === 'boolean') tracking.tracker.isSubscribed = body.isSubscribed;
      return { status: 200, body: { data: { tracker: tracking.tracker } } };
    }),
  );

  return {
    server,
    baseUrl: server.baseUrl,
    apiKey,
    webhookSecret,
    trackings,
    setTracking: (trackingNumber, data) => {
      const tracking = ensure(trackingNumber, data.courierCode);
      if (data.courierCode) tracking.tracker.courierCode = data.courierCode;
      if (data.shipment) Object.assign(tracking.shipment, data.shipment);
      if (data.events) tracking.events = data.events;
      return tracking;
    },
    rateLimitNext: (seconds = 1) =>
      server.failNext({
        status: 429,
        headers: {
          'Retry-After': String(seconds),
          'RateLimit-Limit': '10',
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': String(seconds),
          'Content-Type': 'text/plain',
        },
        body: 'Too Many Requests',
      }),
    trackerPatches: () => server.requests.filter((r) => r.method === 'PATCH'),
    signedDelivery: (list, opts = {}) => ({
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${opts.secret ?? webhookSecret}`,
      },
      body: JSON.stringify({
        trackings: list.map((t) => ({
          metadata: {
            generatedAt: new Date().toISOString(),
            messageId: randomUUID(),
            topic: 'tracking/events',
          },
          ...t,
        })),
      }),
    }),
    close: () => server.close(),
  };
}

function error(status: number, code: string, message: string): FakeResponse {
  return { status, body: { errors: [{ code, message }], data: null } };
}

/** A Ship24 event as the API returns it (newest first in real answers; order is not relied on). */
export function ship24Event(fields: {
  occurrenceDatetime: string;
  status: string;
  statusMilestone: string;
  statusCode?: string | null;
  location?: string | null;
  courierCode?: string | null;
  trackingNumber?: string;
}): Record<string, unknown> {
  return {
    eventId: randomUUID(),
    trackingNumber: fields.trackingNumber ?? null,
    eventTrackingNumber: fields.trackingNumber ?? null,
    status: fields.status,
    occurrenceDatetime: fields.occurrenceDatetime,
    order: null,
    location: fields.location ?? null,
    sourceCode: fields.courierCode ?? null,
    courierCode: fields.courierCode ?? null,
    statusCode: fields.statusCode ?? null,
    statusCategory: fields.statusCode ? fields.statusCode.split('_')[0] : null,
    statusMilestone: fields.statusMilestone,
  };
}
