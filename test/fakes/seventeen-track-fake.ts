import { createHash } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
} from './fake-provider-server';

/** Path prefix of the v2.2 API: give `fake.apiUrl` as the credentials' `baseUrl`. */
export const SEVENTEEN_TRACK_PREFIX = '/track/v2.2';
const BATCH_LIMIT = 40;

/** One event as the fake reports it (newest first in the answer, like 17TRACK). */
export interface FakeSeventeenTrackEvent {
  time: string;
  description: string;
  location?: string;
  country?: string;
  stage?: string;
  subStatus?: string;
  /** Carrier key of the provider that reported it (default: the number's carrier). */
  providerKey?: number;
}

/** The first event of the sample China Post journeys: accepted in Shenzhen. */
export const ACCEPTED_IN_SHENZHEN: FakeSeventeenTrackEvent = {
  time: '2026-03-02T09:10:00+08:00',
  description: 'Acceptance',
  location: 'SHENZHEN',
  country: 'CN',
  stage: 'PickedUp',
  subStatus: 'InTransit_PickedUp',
};

/** What 17TRACK knows of a number. */
export interface FakeSeventeenTrackJourney {
  /** 17TRACK carrier key (e.g. 100002 UPS, 3011 China Post). */
  carrier: number;
  status: string;
  subStatus: string;
  events: FakeSeventeenTrackEvent[];
  /** Estimated delivery date (time_metrics.estimated_delivery_date.to). */
  eta?: string;
  /** Last-mile carrier key (misc_info.local_key). */
  localKey?: number;
  origin?: string;
  destination?: string;
}

export interface SeventeenTrackFake {
  readonly server: FakeProviderServer;
  /** Base URL for the credentials: `<server>/track/v2.2`. */
  readonly apiUrl: string;
  readonly apiKey: string;
  /** Numbers registered (and whether stopped since). */
  readonly registered: Map<string, { carrier: number | null; stopped: boolean }>;
  /** Sets (or replaces) what the fake answers for a number. */
  setJourney(number: string, journey: FakeSeventeenTrackJourney): void;
  /** What the fake answers for numbers without their own journey (default: NotFound). */
  setDefaultJourney(journey: ((number: string) => FakeSeventeenTrackJourney) | null): void;
  /** The `data` object of a TRACKING_UPDATED push / gettrackinfo answer for a number. */
  trackData(number: string): Record<string, unknown>;
  /** POSTs a TRACKING_UPDATED push to `url`, signed with the key (or `signWith`, or unsigned). */
  push(
    url: string,
    number: string,
    options?: { signWith?: string | null },
  ): Promise<{ status: number; body: string }>;
  /** Requests that reached an endpoint (`register`, `gettrackinfo`, `stoptrack`). */
  calls(endpoint: string): FakeRequest[];
  close(): Promise<void>;
}

/** 17TRACK's webhook signature: hex SHA-256 of `<raw body>/<security key>`. */
export function seventeenTrackSign(rawBody: string, key: string): string {
  return createHash('sha256').update(`${rawBody}/${key}`).digest('hex');
}

/**
 * A local 17TRACK Tracking API v2.2 (shared/carrier-apis.md section 1): POST /register,
 * /gettrackinfo and /stoptrack with JSON arrays of `{number, carrier?}`, authenticated by the
 * `17token` header (a wrong key: HTTP 401 with code -18010002), at most 40 numbers per call
 * (else code -18010014), `{code: 0, data: {accepted, rejected}}` envelopes with the documented
 * per-number errors (-18019901 already registered, -18019902 not registered). Protocol
 * failures (429 with Retry-After, 5xx) are scripted with `server.failNext`. Pushes are real
 * HTTP POSTs with the `sign` header.
 */
export async function startSeventeenTrackFake(
  apiKey = 'st-key-0123456789',
): Promise<SeventeenTrackFake> {
  const server = await startFakeProviderServer();
  const journeys = new Map<string, FakeSeventeenTrackJourney>();
  const registered = new Map<string, { carrier: number | null; stopped: boolean }>();
  let defaultJourney: ((number: string) => FakeSeventeenTrackJourney) | null = null;
  const journeyOf = (number: string) => journeys.get(number) ?? defaultJourney?.(number);

  const trackInfo = (number: string): Record<string, unknown> => {
    const j = journeyOf(number);
    if (!j) {
      return {
        latest_status: { status: 'NotFound', sub_status: 'NotFound_Other', sub_status_descr: null },
        tracking: { providers_hash: 0, providers: [] },
      };
    }
    const byProvider = new Map<number, FakeSeventeenTrackEvent[]>();
    for (const e of j.events) {
      const key = e.providerKey ?? j.carrier;
      byProvider.set(key, [...(byProvider.get(key) ?? []), e]);
    }
    // The last-mile provider first, then the origin one, events newest first.
    const keys = [...byProvider.keys()].sort((a, b) =>
      a === j.localKey ? -1 : b === j.localKey ? 1 : 0,
    );
    const providers = keys.map((key) => ({
      provider: {
        key,
        name: `carrier ${key}`,
        alias: null,
        tel: null,
        homepage: null,
        country: null,
      },
      service_type: null,
      latest_sync_status: 'Success',
      latest_sync_time: new Date().toISOString(),
      events_hash: 0,
      events: [...byProvider.get(key)!]
        .sort((a, b) => Date.parse(b.time) - Date.parse(a.time))
        .map((e) => ({
          time_iso: e.time,
          time_utc: new Date(e.time).toISOString(),
          description: e.description,
          location: e.location ?? null,
          stage: e.stage ?? null,
          sub_status: e.subStatus ?? null,
          address: {
            country: e.country ?? null,
            state: null,
            city: null,
            street: null,
            postal_code: null,
          },
        })),
    }));
    const newest = [...j.events].sort((a, b) => Date.parse(b.time) - Date.parse(a.time))[0];
    return {
      shipping_info: {
        shipper_address: { country: j.origin ?? null },
        recipient_address: { country: j.destination ?? null },
      },
      latest_status: { status: j.status, sub_status: j.subStatus, sub_status_descr: null },
      latest_event: newest
        ? {
            time_iso: newest.time,
            description: newest.description,
            location: newest.location ?? null,
          }
        : null,
      time_metrics: {
        days_after_order: 1,
        days_of_transit: 1,
        days_of_transit_done: 1,
        days_after_last_update: 0,
        estimated_delivery_date: { source: 'Official', from: j.eta ?? null, to: j.eta ?? null },
      },
      milestone: [],
      misc_info: { local_key: j.localKey ?? null, local_number: null, local_provider: null },
      tracking: { providers_hash: 0, providers },
    };
  };

  const trackData = (number: string): Record<string, unknown> => ({
    number,
    carrier: journeyOf(number)?.carrier ?? registered.get(number)?.carrier ?? 0,
    param: null,
    tag: null,
    track_info: trackInfo(number),
  });

  /** Auth and batch checks shared by every endpoint; the parsed items when they pass. */
  const guard = (
    req: FakeRequest,
  ): { items: Array<{ number: string; carrier?: number }> } | { answer: FakeResponse } => {
    if (req.headers['17token'] !== apiKey) {
      return {
        answer: {
          status: 401,
          body: {
            code: -18010002,
            data: { errors: [{ code: -18010002, message: 'Invalid access key.' }] },
          },
        },
      };
    }
    const body = req.body;
    if (
      !Array.isArray(body) ||
      body.some((i) => typeof i?.number !== 'string' || i.number === '')
    ) {
      return {
        answer: {
          status: 200,
          body: {
            code: -18010012,
            data: { errors: [{ code: -18010012, message: 'Invalid format.' }] },
          },
        },
      };
    }
    if (body.length > BATCH_LIMIT) {
      return {
        answer: {
          status: 200,
          body: {
            code: -18010014,
            data: {
              errors: [{ code: -18010014, message: 'Tracking numbers exceed the 40 limit.' }],
            },
          },
        },
      };
    }
    return { items: body as Array<{ number: string; carrier?: number }> };
  };
  const rejected = (number: string, code: number, message: string) => ({
    number,
    error: { code, message },
  });

  server.on('POST', `${SEVENTEEN_TRACK_PREFIX}/register`, (req) => {
    const g = guard(req);
    if ('answer' in g) return g.answer;
    const accepted: unknown[] = [];
    const refused: unknown[] = [];
    for (const item of g.items) {
      if (registered.has(item.number)) {
        refused.push(
          rejected(
            item.number,
            -18019901,
            `The tracking number '${item.number}' has been registered, don't need to repeat registration.`,
          ),
        );
        continue;
      }
      const carrier = item.carrier ?? journeyOf(item.number)?.carrier ?? null;
      registered.set(item.number, { carrier, stopped: false });
      accepted.push({ origin: 1, number: item.number, carrier: carrier ?? 0 });
    }
    return { status: 200, body: { code: 0, data: { accepted, rejected: refused } } };
  });

  server.on('POST', `${SEVENTEEN_TRACK_PREFIX}/gettrackinfo`, (req) => {
    const g = guard(req);
    if ('answer' in g) return g.answer;
    const accepted: unknown[] = [];
    const refused: unknown[] = [];
    for (const item of g.items) {
      if (!registered.has(item.number)) {
        refused.push(
          rejected(
            item.number,
            -18019902,
            `The tracking number '${item.number}' does not register, please register first.`,
          ),
        );
      } else {
        accepted.push(trackData(item.number));
      }
    }
    return { status: 200, body: { code: 0, data: { accepted, rejected: refused } } };
  });

  server.on('POST', `${SEVENTEEN_TRACK_PREFIX}/stoptrack`, (req) => {
    const g = guard(req);
    if ('answer' in g) return g.answer;
    const accepted: unknown[] = [];
    const refused: unknown[] = [];
    for (const item of g.items) {
      const state = registered.get(item.number);
      if (!state) {
        refused.push(rejected(item.number, -18019902, 'The tracking number does not register.'));
      } else {
        state.stopped = true;
        accepted.push({ number: item.number, carrier: state.carrier ?? 0 });
      }
    }
    return { status: 200, body: { code: 0, data: { accepted, rejected: refused } } };
  });

  return {
    server,
    apiUrl: `${server.baseUrl}${SEVENTEEN_TRACK_PREFIX}`,
    apiKey,
    registered,
    setJourney: (number, journey) => journeys.set(number, journey),
    setDefaultJourney: (journey) => {
      defaultJourney = journey;
    },
    trackData,
    async push(url, number, options = {}) {
      const rawBody = JSON.stringify({ event: 'TRACKING_UPDATED', data: trackData(number) });
      const key = options.signWith === undefined ? apiKey : options.signWith;
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (key !== null) headers.sign = seventeenTrackSign(rawBody, key);
      const res = await fetch(url, { method: 'POST', headers, body: rawBody });
      return { status: res.status, body: await res.text() };
    },
    calls: (endpoint) => server.calls('POST', `${SEVENTEEN_TRACK_PREFIX}/${endpoint}`),
    close: () => server.close(),
  };
}
