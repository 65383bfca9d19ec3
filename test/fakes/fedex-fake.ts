import { randomBytes, randomUUID } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/**
 * FedEx as the Track API and its OAuth endpoint speak them (shared/carrier-apis.md 5c; FedEx
 * TrackingNumbers-Resource.json, APIAuthorization-Resource.json): form-encoded client
 * credentials, bearer tokens that expire (401 NOT.AUTHORIZED.ERROR), POST of at most 30
 * `trackingInfo` entries, per-number TRACKING.TRACKINGNUMBER.NOTFOUND errors, 429 with
 * Retry-After, `{transactionId, errors}` error bodies.
 */
export interface FedexFakeScan {
  /** Local time with its offset, e.g. "2024-03-04T12:01:00-07:00" (FedEx's own format). */
  readonly date: string;
  readonly eventType: string;
  readonly eventDescription: string;
  readonly derivedStatusCode?: string;
  readonly city?: string;
  readonly stateOrProvinceCode?: string;
  readonly countryCode?: string;
}

export interface FedexFakeShipment {
  readonly scans: readonly FedexFakeScan[];
  /** ISO with offset. */
  readonly estimatedDelivery?: string;
}

export interface FedexFakeOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** `expires_in` of issued tokens (FedEx: 3600). */
  readonly tokenTtlSeconds?: number;
}

export interface FedexFake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** What FedEx answers for a number; unknown numbers get TRACKING.TRACKINGNUMBER.NOTFOUND. */
  setShipment(trackingNumber: string, shipment: FedexFakeShipment): void;
  tokensIssued(): number;
  /** Every issued token becomes invalid (as after expiry). */
  expireTokens(): void;
  rateLimitNext(retryAfterSeconds: number): void;
  /** The tracking numbers of each Track call, in order. */
  trackBatches(): string[][];
  close(): Promise<void>;
}

export const FEDEX_FAKE_MAX_NUMBERS = 30;
const TOKEN_PATH = '/oauth/token';
const TRACK_PATH = '/track/v1/trackingnumbers';

function fedexErrors(status: number, code: string, message: string): FakeResponse {
  return { status, body: { transactionId: randomUUID(), errors: [{ code, message }] } };
}

function scanEvent(scan: FedexFakeScan) {
  const location = {
    city: scan.city ?? '',
    stateOrProvinceCode: scan.stateOrProvinceCode ?? '',
    countryCode: scan.countryCode ?? 'US',
    residential: false,
  };
  return {
    date: scan.date,
    eventType: scan.eventType,
    eventDescription: scan.eventDescription,
    derivedStatusCode: scan.derivedStatusCode ?? scan.eventType,
    derivedStatus: scan.eventDescription,
    exceptionCode: '',
    exceptionDescription: '',
    scanLocation: location,
    locationType: 'FEDEX_FACILITY',
  };
}

function trackResult(trackingNumber: string, shipment: FedexFakeShipment | undefined) {
  if (!shipment) {
    return {
      trackingNumberInfo: { trackingNumber, trackingNumberUniqueId: '', carrierCode: '' },
      error: {
        code: 'TRACKING.TRACKINGNUMBER.NOTFOUND',
        message:
          'Tracking number cannot be found. Please correct the tracking number and try again.',
      },
    };
  }
  const scans = [...shipment.scans].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
  const latest = scans[0];
  return {
    trackingNumberInfo: {
      trackingNumber,
      trackingNumberUniqueId: `12024~${trackingNumber}~FDEG`,
      carrierCode: 'FDXG',
    },
    latestStatusDetail: latest
      ? {
          code: latest.eventType,
          derivedCode: latest.derivedStatusCode ?? latest.eventType,
          statusByLocale: latest.eventDescription,
          description: latest.eventDescription,
        }
      : undefined,
    dateAndTimes: shipment.estimatedDelivery
      ? [{ type: 'ESTIMATED_DELIVERY', dateTime: shipment.estimatedDelivery }]
      : [],
    scanEvents: scans.map(scanEvent),
  };
}

/** The Track answer for numbers and what FedEx knows of each (undefined: not found). */
export function fedexFakeTrackResponse(
  entries: readonly (readonly [string, FedexFakeShipment | undefined])[],
) {
  return {
    transactionId: randomUUID(),
    output: {
      completeTrackResults: entries.map(([n, shipment]) => ({
        trackingNumber: n,
        trackResults: [trackResult(n, shipment)],
      })),
    },
  };
}

export async function startFedexFake(options: FedexFakeOptions = {}): Promise<FedexFake> {
  const server = await startFakeProviderServer();
  const clientId = options.clientId ?? 'fedex-api-key';
  const clientSecret = options.clientSecret ?? 'fedex-secret-key';
  const ttl = options.tokenTtlSeconds ?? 3600;
  const tokens = new Map<string, number>();
  const shipments = new Map<string, FedexFakeShipment>();
  let issued = 0;

  server.on('POST', TOKEN_PATH, (req) => {
    const form = (req.body ?? {}) as Record<string, string>;
    if (!/x-www-form-urlencoded/.test(String(req.headers['content-type']))) {
      return fedexErrors(415, 'CONTENT.TYPE.NOT.SUPPORTED', 'Unsupported content type.');
    }
    if (form.grant_type !== 'client_credentials') {
      return fedexErrors(400, 'GRANT.TYPE.INVALID', 'Grant type is invalid.');
    }
    if (form.client_id !== clientId || form.client_secret !== clientSecret) {
      return fedexErrors(
        401,
        'NOT.AUTHORIZED.ERROR',
        'The given client credentials were not valid. Please modify your request and try again.',
      );
    }
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, Date.now() + ttl * 1000);
    issued += 1;
    return {
      status: 200,
      body: { access_token: token, token_type: 'bearer', expires_in: ttl, scope: 'CXS' },
    };
  });

  server.on('POST', TRACK_PATH, (req: FakeRequest) => {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const expiry = token ? tokens.get(token) : undefined;
    if (expiry === undefined || expiry <= Date.now()) {
      return fedexErrors(
        401,
        'NOT.AUTHORIZED.ERROR',
        'Access token expired. Please modify your request and try again.',
      );
    }
    const body = (req.body ?? {}) as {
      trackingInfo?: { trackingNumberInfo?: { trackingNumber?: string } }[];
    };
    const numbers = (body.trackingInfo ?? []).map((t) => t.trackingNumberInfo?.trackingNumber);
    if (numbers.length === 0 || numbers.some((n) => !n)) {
      return fedexErrors(400, 'TRACKING.TRACKINGNUMBER.EMPTY', 'Please provide tracking number.');
    }
    if (numbers.length > FEDEX_FAKE_MAX_NUMBERS) {
      // The limit is documented (maxItems 30); the error code FedEx uses is UNCONFIRMED.
      return fedexErrors(
        400,
        'TRACKING.TRACKINGNUMBER.LIMITEXCEEDED',
        'Please limit your request to 30 tracking numbers.',
      );
    }
    return {
      status: 200,
      body: fedexFakeTrackResponse((numbers as string[]).map((n) => [n, shipments.get(n)])),
    };
  });

  return {
    server,
    baseUrl: server.baseUrl,
    clientId,
    clientSecret,
    setShipment: (n, shipment) => void shipments.set(n, shipment),
    tokensIssued: () => issued,
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    rateLimitNext(retryAfterSeconds) {
      server.failNext({
        ...fedexErrors(429, 'RATE.LIMIT.EXCEEDED', 'We have received too many requests.'),
        headers: { 'Retry-After': String(retryAfterSeconds) },
      });
    },
    trackBatches: () =>
      server
        .calls('POST', TRACK_PATH)
        .map((r) =>
          (
            (r.body as { trackingInfo?: { trackingNumberInfo: { trackingNumber: string } }[] })
              ?.trackingInfo ?? []
          ).map((t) => t.trackingNumberInfo.trackingNumber),
        ),
    close: () => server.close(),
  };
}
