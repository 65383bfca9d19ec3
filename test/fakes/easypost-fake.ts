import { createHmac, randomBytes } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/**
 * EasyPost Trackers on loopback (carrier-apis.md section 6): HTTP Basic with the API key as
 * user, `POST /v2/trackers {"tracker": {...}}` (a duplicate code + carrier returns the original),
 * `GET /v2/trackers` with `tracking_codes[]`, `page_size`, `before_id` and `has_more`, errors
 * `{"error": {code, message, errors}}` (codes UNCONFIRMED), 429 with Retry-After, and webhook
 * Events signed `X-Hmac-Signature: hmac-sha256-hex=<HMAC-SHA256(NFKD secret, raw body)>`.
 */
export const EASYPOST_FAKE_MAX_PAGE_SIZE = 100;
/** Carriers the fake takes on create; another one is 422 TRACKER.CARRIER.INVALID. */
export const EASYPOST_FAKE_CARRIERS = new Set([
  'USPS',
  'UPS',
  'FedEx',
  'DHLExpress',
  'DHLeCommerce',
]);

export type EasyPostTracker = Record<string, unknown> & {
  id: string;
  tracking_code: string;
  carrier: string;
};

export interface EasyPostFake {
  readonly server: FakeProviderServer;
  /** e.g. http://127.0.0.1:1234/v2 (the credentials' baseUrl, like production's). */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly webhookSecret: string;
  readonly trackers: EasyPostTracker[];
  /** Insert or replace (by code and carrier) a tracker; returns the stored object. */
  setTracker(fields: Partial<EasyPostTracker> & { tracking_code: string }): EasyPostTracker;
  rateLimitNext(seconds?: number): void;
  /** A webhook Event of this tracker as EasyPost sends it (secret: the fake's own). */
  signedDelivery(
    tracker: EasyPostTracker,
    options?: { description?: string; secret?: string },
  ): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

export async function startEasyPostFake(
  options: { apiKey?: string; webhookSecret?: string } = {},
): Promise<EasyPostFake> {
  const server = await startFakeProviderServer();
  const apiKey = options.apiKey ?? `EZTK${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `sécret-${randomBytes(8).toString('hex')}`;
  const trackers: EasyPostTracker[] = [];
  let sequence = 0;

  const setTracker: EasyPostFake['setTracker'] = (fields) => {
    const carrier = fields.carrier ?? detectCarrier(fields.tracking_code);
    const at = trackers.findIndex(
      (t) => t.tracking_code === fields.tracking_code && t.carrier === carrier,
    );
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const tracker = {
      ...(at >= 0
        ? trackers[at]
        : {
            id: `trk_${String(++sequence).padStart(4, '0')}${randomBytes(12).toString('hex')}`,
            object: 'Tracker',
            mode: 'test',
            status: fields.tracking_code === 'EZ1000000001' ? 'pre_transit' : 'unknown',
            status_detail: 'unknown',
            created_at: now,
            signed_by: null,
            weight: null,
            est_delivery_date: null,
            shipment_id: null,
            tracking_details: [],
            carrier_detail: null,
            finalized: false,
            is_return: false,
            public_url: null,
          }),
      carrier,
      updated_at: now,
      ...fields,
    } as EasyPostTracker;
    if (at >= 0) trackers[at] = tracker;
    else trackers.push(tracker);
    return tracker;
  };

  const authorized = (req: FakeRequest, then: () => FakeResponse): FakeResponse => {
    const header = req.headers.authorization;
    if (header === undefined) {
      return error(401, 'APIKEY.REQUIRED', 'An API key is required for this request.');
    }
    const user = /^Basic (.+)$/.exec(header)?.[1];
    const decoded = user ? Buffer.from(user, 'base64').toString('utf8') : '';
    if (decoded !== `${apiKey}:`) return error(401, 'APIKEY.INVALID', 'The API key is invalid.');
    return then();
  };

  server.on('POST', '/v2/trackers', (req) =>
    authorized(req, () => {
      const input = (req.body as { tracker?: Record<string, unknown> } | undefined)?.tracker;
      const code = input?.tracking_code;
      if (typeof code !== 'string' || code === '') {
        return error(422, 'TRACKER.TRACKING_CODE.MISSING', 'Tracking code is required.');
      }
      if (!/^[A-Za-z0-9]{5,40}$/.test(code)) {
        return error(422, 'TRACKER.TRACKING_CODE.INVALID', 'Invalid tracking code.');
      }
      const carrier = input?.carrier;
      if (
        carrier !== undefined &&
        (typeof carrier !== 'string' || !EASYPOST_FAKE_CARRIERS.has(carrier))
      ) {
        return error(422, 'TRACKER.CARRIER.INVALID', 'The carrier is invalid.');
      }
      const resolved = typeof carrier === 'string' ? carrier : detectCarrier(code);
      const existing = trackers.find((t) => t.tracking_code === code && t.carrier === resolved);
      if (existing) return { status: 200, body: existing };
      return { status: 201, body: setTracker({ tracking_code: code, carrier: resolved }) };
    }),
  );

  server.on('GET', '/v2/trackers', (req) =>
    authorized(req, () => {
      const codes = [...req.query.getAll('tracking_codes[]'), ...req.query.getAll('tracking_code')];
      const pageSize = Number(req.query.get('page_size') ?? 20);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > EASYPOST_FAKE_MAX_PAGE_SIZE) {
        return error(422, 'PARAMETER.INVALID', 'page_size is invalid.');
      }
      // Newest first, as EasyPost lists; before_id pages towards older trackers.
      let list = [...trackers]
        .reverse()
        .filter((t) => codes.length === 0 || codes.includes(t.tracking_code));
      const beforeId = req.query.get('before_id');
      if (beforeId !== null) {
        const at = list.findIndex((t) => t.id === beforeId);
        list = at >= 0 ? list.slice(at + 1) : [];
      }
      return {
        status: 200,
        body: { trackers: list.slice(0, pageSize), has_more: list.length > pageSize },
      };
    }),
  );

  return {
    server,
    baseUrl: `${server.baseUrl}/v2`,
    apiKey,
    webhookSecret,
    trackers,
    setTracker,
    rateLimitNext: (seconds = 1) =>
      server.failNext({
        status: 429,
        headers: { 'Retry-After': String(seconds) },
        body: { error: { code: 'RATE_LIMITED', message: 'Too many requests.', errors: [] } },
      }),
    signedDelivery: (tracker, opts = {}) => {
      const now = new Date().toISOString();
      const body = JSON.stringify({
        object: 'Event',
        id: `evt_${randomBytes(12).toString('hex')}`,
        mode: 'test',
        description: opts.description ?? 'tracker.updated',
        status: 'pending',
        previous_attributes: {},
        result: tracker,
        pending_urls: [],
        completed_urls: [],
        created_at: now,
        updated_at: now,
        user_id: 'user_0001',
      });
      const key = Buffer.from((opts.secret ?? webhookSecret).normalize('NFKD'), 'utf8');
      const hex = createHmac('sha256', key).update(body).digest('hex');
      return {
        headers: {
          'Content-Type': 'application/json',
          'X-Hmac-Signature': `hmac-sha256-hex=${hex}`,
        },
        body,
      };
    },
    close: () => server.close(),
  };
}

function error(status: number, code: string, message: string): FakeResponse {
  return { status, body: { error: { code, message, errors: [] } } };
}

/** EasyPost detects the carrier from the code when none is given. */
function detectCarrier(code: string): string {
  if (/^1Z[0-9A-Z]{16}$/i.test(code)) return 'UPS';
  if (/^[0-9]{12}$|^[0-9]{15}$/.test(code)) return 'FedEx';
  if (/^[0-9]{10}$/.test(code)) return 'DHLExpress';
  return 'USPS';
}

/** One of a tracker's `tracking_details`, as EasyPost returns it. */
export function easyPostDetail(fields: {
  datetime: string;
  message: string;
  status: string;
  status_detail?: string;
  source?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
}): Record<string, unknown> {
  return {
    object: 'TrackingDetail',
    message: fields.message,
    description: '',
    status: fields.status,
    status_detail: fields.status_detail ?? 'status_update',
    datetime: fields.datetime,
    source: fields.source ?? 'USPS',
    carrier_code: '',
    tracking_location: {
      object: 'TrackingLocation',
      city: fields.city ?? null,
      state: fields.state ?? null,
      country: fields.country ?? null,
      zip: fields.zip ?? null,
    },
  };
}
