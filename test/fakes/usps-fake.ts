import { randomBytes } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/**
 * USPS as Tracking v3 and its OAuth endpoint speak them (shared/carrier-apis.md 5a;
 * USPS/api-examples README): JSON client credentials, string `expires_in`, bearer tokens,
 * `GET /tracking/v3/tracking/{n}?expand=DETAIL`, 429 with Retry-After. The error body shape
 * (`{apiVersion, error: {code, message, errors}}`) is the one of USPS's other v3 APIs and
 * UNCONFIRMED for tracking.
 */
export interface UspsFakeEvent {
  /** ISO timestamp as USPS gives it, e.g. "2023-08-02T07:31:00Z" or with an offset. */
  readonly eventTimestamp: string;
  readonly eventType: string;
  readonly eventCode: string;
  readonly eventCity?: string;
  readonly eventState?: string;
  readonly eventZIP?: string;
  readonly eventCountry?: string;
}

export interface UspsFakePackage {
  readonly statusCategory: string;
  readonly events: readonly UspsFakeEvent[];
  readonly expectedDeliveryDate?: string;
}

export interface UspsFakeOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly tokenTtlSeconds?: number;
}

export interface UspsFake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** What v3 answers for a number; null: 404. */
  setPackage(trackingNumber: string, pkg: UspsFakePackage | null): void;
  tokensIssued(): number;
  expireTokens(): void;
  rateLimitNext(retryAfterSeconds: number): void;
  trackCalls(): FakeRequest[];
  close(): Promise<void>;
}

export const USPS_FAKE_TRACK_PREFIX = '/tracking/v3/tracking/';
const TOKEN_PATH = '/oauth2/v3/token';

function uspsError(status: number, message: string): FakeResponse {
  return {
    status,
    body: {
      apiVersion: '/tracking/v3',
      error: {
        code: String(status),
        message,
        errors: [{ status: String(status), code: String(status), title: message, detail: message }],
      },
    },
  };
}

/** The DETAIL answer of a package, events newest first. */
export function uspsFakeTrackResponse(trackingNumber: string, pkg: UspsFakePackage) {
  const events = [...pkg.events].sort(
    (a, b) => Date.parse(b.eventTimestamp) - Date.parse(a.eventTimestamp),
  );
  return {
    trackingNumber,
    status: events[0]?.eventType ?? '',
    statusCategory: pkg.statusCategory,
    statusSummary: `Your item status: ${events[0]?.eventType ?? 'unknown'}.`,
    mailClass: 'Priority Mail',
    mailType: 'DOMESTIC_MAIL',
    destinationCity: 'PALO ALTO',
    destinationState: 'CA',
    destinationZIP: '94301',
    ...(pkg.expectedDeliveryDate ? { expectedDeliveryDate: pkg.expectedDeliveryDate } : {}),
    trackingEvents: events.map((e) => ({
      eventType: e.eventType,
      eventTimestamp: e.eventTimestamp,
      eventCountry: e.eventCountry ?? '',
      eventCity: e.eventCity ?? '',
      eventState: e.eventState ?? '',
      eventZIP: e.eventZIP ?? '',
      firm: '',
      name: '',
      authorizedAgent: false,
      eventCode: e.eventCode,
    })),
  };
}

export async function startUspsFake(options: UspsFakeOptions = {}): Promise<UspsFake> {
  const server = await startFakeProviderServer();
  const clientId = options.clientId ?? 'usps-consumer-key';
  const clientSecret = options.clientSecret ?? 'usps-consumer-secret';
  const ttl = options.tokenTtlSeconds ?? 28799;
  const tokens = new Map<string, number>();
  let issued = 0;

  server.on('POST', TOKEN_PATH, (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== 'client_credentials') {
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    }
    if (body.client_id !== clientId || body.client_secret !== clientSecret) {
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client authentication failed' },
      };
    }
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, Date.now() + ttl * 1000);
    issued += 1;
    return {
      status: 200,
      body: {
        access_token: token,
        token_type: 'Bearer',
        issued_at: Date.now(),
        expires_in: String(ttl),
        status: 'approved',
        scope: 'addresses tracking labels',
        issuer: 'api.usps.com',
        client_id: clientId,
        application_name: 'tracking-tests',
        api_products: '[Public Access]',
        public_key: '',
      },
    };
  });

  return {
    server,
    baseUrl: server.baseUrl,
    clientId,
    clientSecret,
    setPackage(trackingNumber, pkg) {
      server.on('GET', `${USPS_FAKE_TRACK_PREFIX}${trackingNumber}`, (req) => {
        const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
        const expiry = token ? tokens.get(token) : undefined;
        if (expiry === undefined || expiry <= Date.now()) {
          return uspsError(401, 'Unauthorized: the access token is invalid or expired.');
        }
        if (!pkg) return uspsError(404, 'The tracking number was not found.');
        return { status: 200, body: uspsFakeTrackResponse(trackingNumber, pkg) };
      });
    },
    tokensIssued: () => issued,
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    rateLimitNext(retryAfterSeconds) {
      server.failNext({
        ...uspsError(429, 'Too many requests.'),
        headers: { 'Retry-After': String(retryAfterSeconds) },
      });
    },
    trackCalls: () => server.requests.filter((r) => r.path.startsWith(USPS_FAKE_TRACK_PREFIX)),
    close: () => server.close(),
  };
}
