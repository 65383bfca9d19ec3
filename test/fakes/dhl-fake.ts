import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/**
 * DHL Shipment Tracking - Unified (shared/carrier-apis.md 4): `GET /track/shipments?
 * trackingNumber=` with a `DHL-API-Key` header, one number per call, `TrackingShipments`
 * answers, RFC 7807 problem bodies for 401 (bad key), 404 (unknown number) and 429 (quota,
 * with Retry-After).
 */
export interface DhlFakeEvent {
  /** ISO timestamp as DHL sends it (with an offset, or bare local time for Express). */
  readonly timestamp: string;
  readonly statusCode: 'pre-transit' | 'transit' | 'delivered' | 'failure' | 'unknown';
  readonly status: string;
  readonly description?: string;
  readonly addressLocality?: string;
  readonly countryCode?: string;
}

export interface DhlFakeShipment {
  readonly service: string;
  readonly events: readonly DhlFakeEvent[];
  readonly estimatedTimeOfDelivery?: string;
  readonly originCountryCode?: string;
  readonly destinationCountryCode?: string;
  readonly returnFlag?: boolean;
}

export interface DhlFake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Shipments DHL knows under a number (several divisions may share one). */
  setShipments(trackingNumber: string, shipments: readonly DhlFakeShipment[]): void;
  rateLimitNext(retryAfterSeconds: number): void;
  trackCalls(): FakeRequest[];
  close(): Promise<void>;
}

const TRACK_PATH = '/track/shipments';

function problem(status: number, title: string, detail: string): FakeResponse {
  return {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
    body: JSON.stringify({ type: 'about:blank', title, status, detail, instance: TRACK_PATH }),
  };
}

function address(locality: string | undefined, countryCode: string | undefined) {
  return { address: { addressLocality: locality ?? '', countryCode: countryCode ?? '' } };
}

/** One shipment of a `TrackingShipments` answer, events newest first. */
export function dhlFakeShipment(id: string, s: DhlFakeShipment) {
  const events = [...s.events]
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp))
    .map((e) => ({
      timestamp: e.timestamp,
      location: address(e.addressLocality, e.countryCode),
      statusCode: e.statusCode,
      status: e.status,
      description: e.description ?? e.status,
    }));
  return {
    id,
    service: s.service,
    origin: address(undefined, s.originCountryCode),
    destination: address(undefined, s.destinationCountryCode),
    status: events[0],
    ...(s.estimatedTimeOfDelivery ? { estimatedTimeOfDelivery: s.estimatedTimeOfDelivery } : {}),
    ...(s.returnFlag !== undefined ? { returnFlag: s.returnFlag } : {}),
    details: { totalNumberOfPieces: 1, pieceIds: [id] },
    events,
  };
}

export async function startDhlFake(apiKey = 'dhl-consumer-key'): Promise<DhlFake> {
  const server = await startFakeProviderServer();
  const known = new Map<string, readonly DhlFakeShipment[]>();

  server.on('GET', TRACK_PATH, (req) => {
    if (req.headers['dhl-api-key'] !== apiKey) {
      return problem(401, 'Unauthorized', 'Unauthorized for given resource.');
    }
    const number = req.query.get('trackingNumber') ?? '';
    if (number === '') {
      return problem(400, 'Bad Request', 'Tracking number is required.');
    }
    const shipments = known.get(number);
    if (!shipments || shipments.length === 0) {
      return problem(404, 'No shipment with given tracking number found.', 'Not found.');
    }
    return {
      status: 200,
      body: {
        url: `${TRACK_PATH}?trackingNumber=${number}`,
        shipments: shipments.map((s) => dhlFakeShipment(number, s)),
        possibleAdditionalShipmentsUrl: [],
      },
    };
  });

  return {
    server,
    baseUrl: server.baseUrl,
    apiKey,
    setShipments: (n, shipments) => void known.set(n, shipments),
    rateLimitNext(retryAfterSeconds) {
      server.failNext({
        ...problem(429, 'Too many requests', 'Too many requests in a given amount of time.'),
        headers: {
          'Content-Type': 'application/problem+json',
          'Retry-After': String(retryAfterSeconds),
        },
      });
    },
    trackCalls: () => server.calls('GET', TRACK_PATH),
    close: () => server.close(),
  };
}
