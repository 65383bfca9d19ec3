import { randomBytes } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/**
 * UPS as the Track API, the OAuth client-credentials endpoint and Track Alert v2 speak them
 * (shared/carrier-apis.md 5b; UPS-API/api-documentation Tracking.yaml,
 * UPSTrackAlertEnhanced.yaml): Basic-authenticated token requests, bearer tokens that expire or
 * get revoked (401 UJ0001 / 250002), required transId / transactionSrc headers (400 VSS002 /
 * VSS004), one number per GET, 404 TW0001 for unknown numbers, 429 with Retry-After, Track
 * Alert subscriptions of at most 100 1Z numbers without a destination (v2: the webhook is set
 * in the portal, `configureWebhook`), and pushes of subscribed numbers only, with an OAuth
 * token UPS first gets from the subscriber's token URL (`alert`).
 */
export interface UpsFakeActivity {
  /** Local time with its offset, e.g. "2024-04-22T21:29:01-04:00". */
  readonly at: string;
  readonly type: string;
  readonly code: string;
  readonly statusCode: string;
  readonly description: string;
  readonly city?: string;
  readonly stateProvince?: string;
  readonly countryCode?: string;
}

export interface UpsFakePackage {
  readonly activities: readonly UpsFakeActivity[];
  /** YYYYMMDD */
  readonly scheduledDelivery?: string;
  readonly rescheduledDelivery?: string;
  /** A USPS PIC when UPS hands the last mile to USPS (Ground Saver). */
  readonly uspsPic?: string;
}

export interface UpsFakeOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** `expires_in` of issued tokens (UPS: 14399). */
  readonly tokenTtlSeconds?: number;
}

/** One subscription request UPS accepted. */
export interface UpsSubscription {
  readonly type: string;
  /** The request body as received. */
  readonly body: Record<string, unknown>;
  readonly trackingNumberList: string[];
  /** The 1Z numbers subscribed by it. */
  readonly valid: string[];
  readonly headers: FakeRequest['headers'];
}

/** The app's webhook settings in the UPS portal ("Manage Webhook Credentials", v2). */
export interface UpsWebhookSettings {
  readonly url: string;
  /** The subscriber's OAuth token URL UPS gets its push token from. */
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface UpsFake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly subscriptions: UpsSubscription[];
  /** Whether a subscription covers this number (Track Alert pushes its events). */
  isSubscribed(trackingNumber: string): boolean;
  /** Sets the webhook of the app, as the UPS portal does. */
  configureWebhook(settings: UpsWebhookSettings): void;
  /**
   * UPS pushing one event of a subscribed number to the configured webhook: a token from the
   * token URL first, then the event with it. Throws for a number no subscription covers.
   */
  alert(event: Record<string, unknown>): Promise<{ status: number; body: string }>;
  /** What the Track API answers for a number; null: 404 "Tracking Information Not Found". */
  setPackage(trackingNumber: string, pkg: UpsFakePackage | null): void;
  /** Tokens issued so far. */
  tokensIssued(): number;
  /** Every issued token becomes invalid (as after expiry): the next call with one gets 401. */
  expireTokens(): void;
  /** From now on every bearer token is refused (API access withdrawn from the app). */
  refuseTokens(): void;
  /** The next request answers 429 with Retry-After. */
  rateLimitNext(retryAfterSeconds: number): void;
  trackCalls(): FakeRequest[];
  close(): Promise<void>;
}

export const UPS_FAKE_TRACK_PREFIX = '/api/track/v1/details/';
const TOKEN_PATH = '/security/v1/oauth/token';
export const UPS_FAKE_SUBSCRIPTION_PREFIX = '/api/track/v2/subscription/';

function upsErrors(status: number, code: string, message: string): FakeResponse {
  return { status, body: { response: { errors: [{ code, message }] } } };
}

/** "2024-04-22T21:29:01-04:00" -> UPS activity date, time, gmtDate, gmtTime, gmtOffset. */
export function upsFakeWhen(at: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-]\d{2}:\d{2})$/.exec(at);
  if (!m) throw new Error(`UPS fake wants a local time with offset, got ${at}`);
  const gmt = new Date(at).toISOString();
  return {
    date: `${m[1]}${m[2]}${m[3]}`,
    time: `${m[4]}${m[5]}${m[6]}`,
    gmtDate: gmt.slice(0, 10).replace(/-/g, ''),
    // UPS drops the leading zero of GMT times (official example "74700").
    gmtTime: String(Number(gmt.slice(11, 19).replace(/:/g, ''))),
    gmtOffset: m[7],
  };
}

/** The Track API answer of one package, newest activity first as UPS sends them. */
export function upsFakeTrackResponse(trackingNumber: string, pkg: UpsFakePackage) {
  const activity = [...pkg.activities]
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .map((a) => ({
      ...upsFakeWhen(a.at),
      location: {
        address: {
          city: a.city ?? '',
          stateProvince: a.stateProvince ?? '',
          countryCode: a.countryCode ?? 'US',
          country: a.countryCode ?? 'US',
        },
        slic: '8566',
      },
      status: {
        type: a.type,
        code: a.code,
        description: a.description,
        statusCode: a.statusCode,
      },
    }));
  const deliveryDate = [
    ...(pkg.scheduledDelivery ? [{ type: 'SDD', date: pkg.scheduledDelivery }] : []),
    ...(pkg.rescheduledDelivery ? [{ type: 'RDD', date: pkg.rescheduledDelivery }] : []),
  ];
  return {
    trackResponse: {
      shipment: [
        {
          inquiryNumber: trackingNumber,
          package: [
            {
              trackingNumber,
              activity,
              currentStatus: activity[0]?.status,
              deliveryDate,
              alternateTrackingNumber: pkg.uspsPic
                ? [{ type: 'USPS_PIC', number: pkg.uspsPic }]
                : [],
              service: { code: '518', description: 'UPS Ground', levelCode: '011' },
            },
          ],
        },
      ],
    },
  };
}

export async function startUpsFake(options: UpsFakeOptions = {}): Promise<UpsFake> {
  const server = await startFakeProviderServer();
  const clientId = options.clientId ?? 'ups-client-id';
  const clientSecret = options.clientSecret ?? 'ups-client-secret';
  const ttl = options.tokenTtlSeconds ?? 14399;
  const tokens = new Map<string, number>();
  let issued = 0;
  let refusing = false;
  const subscriptions: UpsSubscription[] = [];

  server.on('POST', TOKEN_PATH, (req) => {
    const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const [id, secret] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':');
    if (!/x-www-form-urlencoded/.test(String(req.headers['content-type']))) {
      return upsErrors(400, '10007', 'Content type not supported');
    }
    if (id !== clientId || secret !== clientSecret) {
      return upsErrors(401, '10401', 'ClientId is Invalid');
    }
    if ((req.body as Record<string, string>)?.grant_type !== 'client_credentials') {
      return upsErrors(400, '10400', 'Invalid/Missing grant_type');
    }
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, Date.now() + ttl * 1000);
    issued += 1;
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        issued_at: String(Date.now()),
        client_id: clientId,
        access_token: token,
        scope: '',
        expires_in: String(ttl),
        refresh_count: '0',
        status: 'approved',
      },
    };
  });

  /** Bearer token and transaction headers, as every Track / Track Alert call requires. */
  const guard = (req: FakeRequest): FakeResponse | null => {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!token) return upsErrors(401, 'UJ0001', 'Invalid token or token is not present.');
    const expiry = tokens.get(token);
    if (refusing || expiry === undefined || expiry <= Date.now()) {
      return upsErrors(401, '250002', 'Invalid Authentication Information.');
    }
    if (!req.headers.transid) return upsErrors(400, 'VSS002', 'Missing transId.');
    if (!req.headers.transactionsrc) return upsErrors(400, 'VSS004', 'Missing transactionSrc.');
    return null;
  };

  const subscribed = new Set<string>();
  let webhook: UpsWebhookSettings | null = null;

  // POST /api/track/v2/subscription/{type}/package, type standard or enhanced.
  server.onPrefix('POST', UPS_FAKE_SUBSCRIPTION_PREFIX, (req) => {
    const type = /^\/api\/track\/v2\/subscription\/([^/]+)\/package$/.exec(req.path)?.[1];
    if (type !== 'standard' && type !== 'enhanced') {
      return upsErrors(400, 'VSS930', 'Type is missing or invalid.');
    }
    const refused = guard(req);
    if (refused) return refused;
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!body.locale) return upsErrors(400, 'VSS300', 'Locale is required.');
    if (typeof body.countryCode !== 'string' || !/^[A-Z]{2}$/.test(body.countryCode)) {
      return upsErrors(400, 'VSS400', 'Please enter a valid country code.');
    }
    const list = Array.isArray(body.trackingNumberList) ? body.trackingNumberList.map(String) : [];
    if (list.length === 0) return upsErrors(400, 'VSS200', 'Tracking Number List is required.');
    if (list.length > 100) {
      return upsErrors(400, 'VSS220', 'You have submitted over 100 tracking numbers.');
    }
    const valid = list.filter((n) => /^1Z[0-9A-Z]{16}$/.test(n));
    const invalid = list.filter((n) => !valid.includes(n));
    if (valid.length === 0) {
      return {
        status: 400,
        body: {
          invalidTrackingNumbers: invalid,
          response: {
            errors: [
              {
                code: 'VSS210',
                message: 'The Subscription request should have at least one valid tracking number.',
              },
            ],
          },
        },
      };
    }
    subscriptions.push({ type, body, trackingNumberList: list, valid, headers: req.headers });
    for (const n of valid) subscribed.add(n);
    return {
      status: 200,
      body: {
        validTrackingNumbers: valid,
        ...(invalid.length ? { invalidTrackingNumbers: invalid } : {}),
      },
    };
  });

  return {
    server,
    baseUrl: server.baseUrl,
    clientId,
    clientSecret,
    subscriptions,
    isSubscribed: (trackingNumber) => subscribed.has(trackingNumber),
    configureWebhook(settings) {
      webhook = settings;
    },
    async alert(event) {
      const number = String(event.trackingNumber);
      if (!subscribed.has(number)) throw new Error(`UPS fake: ${number} is not subscribed`);
      if (!webhook) throw new Error('UPS fake: no webhook configured in the portal');
      return upsTrackAlertSend(webhook, event)(webhook.url);
    },
    setPackage(trackingNumber, pkg) {
      server.on('GET', `${UPS_FAKE_TRACK_PREFIX}${trackingNumber}`, (req) => {
        const refused = guard(req);
        if (refused) return refused;
        if (!pkg) return upsErrors(404, 'TW0001', 'Tracking Information Not Found');
        return { status: 200, body: upsFakeTrackResponse(trackingNumber, pkg) };
      });
    },
    tokensIssued: () => issued,
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    refuseTokens() {
      refusing = true;
    },
    rateLimitNext(retryAfterSeconds) {
      server.failNext({
        ...upsErrors(429, '10429', 'Too Many Requests'),
        headers: { 'Retry-After': String(retryAfterSeconds) },
      });
    },
    trackCalls: () => server.requests.filter((r) => r.path.startsWith(UPS_FAKE_TRACK_PREFIX)),
    close: () => server.close(),
  };
}

/** A Track Alert event as UPS posts it (official TrackingEventRequest fields). */
export function upsFakeAlertEvent(
  trackingNumber: string,
  activity: UpsFakeActivity,
  scheduledDelivery = '',
): Record<string, string | Record<string, string>> {
  const when = upsFakeWhen(activity.at);
  const delivered = activity.type === 'D';
  return {
    trackingNumber,
    localActivityDate: when.date,
    localActivityTime: when.time,
    activityLocation: {
      city: activity.city ?? '',
      stateProvince: activity.stateProvince ?? '',
      postalCode: '',
      country: activity.countryCode ?? 'US',
    },
    activityStatus: {
      type: activity.type,
      code: activity.code,
      description: activity.description,
      descriptionCode: activity.statusCode,
    },
    scheduledDeliveryDate: scheduledDelivery,
    actualDeliveryDate: delivered ? when.date : '',
    actualDeliveryTime: delivered ? when.time : '',
    // Track Alert GMT times keep six digits.
    gmtActivityDate: when.gmtDate,
    gmtActivityTime: when.gmtTime.padStart(6, '0'),
    deliveryStartTime: '',
    deliveryEndTime: '',
    deliveryTimeDescription: '',
  };
}

/**
 * How Track Alert v2 pushes an event to a webhook URL: it gets an OAuth token from the
 * subscriber's token URL (client credentials, HTTP Basic; default `<url>/token`), then POSTs
 * the event with `Authorization: Bearer`, `x-api-key` (the client id) and its User-Agent.
 * A refused token request pushes without a token. `token` forces the token sent (null: none).
 */
export function upsTrackAlertSend(
  auth: { clientId: string; clientSecret: string; tokenUrl?: string },
  event: unknown,
  options: { token?: string | null } = {},
): (url: string) => Promise<{ status: number; body: string }> {
  return async (url) => {
    let token = options.token;
    if (token === undefined) {
      const basic = Buffer.from(`${auth.clientId}:${auth.clientSecret}`).toString('base64');
      const res = await fetch(auth.tokenUrl ?? `${url}/token`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      });
      const answer = (await res.json().catch(() => null)) as { access_token?: string } | null;
      token = res.ok ? (answer?.access_token ?? null) : null;
    }
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'UPSPubSubTrackingService',
        'x-api-key': auth.clientId,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(event),
    });
    return { status: res.status, body: await res.text() };
  };
}
