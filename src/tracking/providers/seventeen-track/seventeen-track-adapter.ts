import { createHash, timingSafeEqual } from 'node:crypto';
import { TrackingProviderError, providerDetail } from '../tracking-provider-error';
import {
  ProviderCredentialsRejected,
  ProviderNumberNotRegistered,
  type ProviderAdapter,
  type ProviderCallContext,
  type ProviderCredentials,
  type ProviderOutcome,
  type ProviderTrackRequest,
  type PushRequest,
  type PushedUpdate,
  type StopOutcomes,
} from '../remote/provider-adapter';
import { providerUrl } from '../remote/provider-url';
import { carrierOfSeventeenTrackKey, seventeenTrackKeyOf } from './seventeen-track-carriers';
import { mapTrackInfo, type SeventeenTrackInfo } from './seventeen-track-track-info';

/** Numbers per register / gettrackinfo / stoptrack call (official; -18010014 beyond). */
export const SEVENTEEN_TRACK_BATCH = 40;
/** Error codes of 17TRACK v2.2 (help centre, "error codes"). */
export const SeventeenTrackErrors = {
  ipNotWhitelisted: -18010001,
  invalidKey: -18010002,
  internal: -18010003,
  accountDisabled: -18010004,
  unauthorized: -18010005,
  tooManyNumbers: -18010014,
  alreadyRegistered: -18019901,
  notRegistered: -18019902,
  carrierNotDetected: -18019903,
} as const;
/** Our words for the codes we know: messages never carry the answer's own text. */
const ERROR_WORDS: Readonly<Record<number, string>> = {
  [SeventeenTrackErrors.ipNotWhitelisted]: 'IP address not allowed for the key',
  [SeventeenTrackErrors.invalidKey]: 'invalid key',
  [SeventeenTrackErrors.internal]: 'internal error',
  [SeventeenTrackErrors.accountDisabled]: 'account disabled',
  [SeventeenTrackErrors.unauthorized]: 'unauthorized',
  [SeventeenTrackErrors.tooManyNumbers]: 'too many numbers',
  [SeventeenTrackErrors.alreadyRegistered]: 'already registered',
  [SeventeenTrackErrors.notRegistered]: 'not registered',
  [SeventeenTrackErrors.carrierNotDetected]: 'carrier not detected',
};
const CREDENTIAL_ERRORS: ReadonlySet<number> = new Set([
  SeventeenTrackErrors.ipNotWhitelisted,
  SeventeenTrackErrors.invalidKey,
  SeventeenTrackErrors.accountDisabled,
  SeventeenTrackErrors.unauthorized,
]);
/** Webhook signature header: hex SHA-256 of `<raw body>/<security key>` (3p, see README). */
export const SEVENTEEN_TRACK_SIGN_HEADER = 'sign';

interface Envelope {
  code?: number;
  data?: {
    accepted?: Array<{ number?: string; carrier?: number; track_info?: SeventeenTrackInfo }>;
    rejected?: Array<{ number?: string; error?: { code?: number; message?: string } }>;
    errors?: Array<{ code?: number; message?: string }>;
  } | null;
  message?: string;
}

/** The signature 17TRACK puts in `sign` for a webhook body. */
export function seventeenTrackSignature(rawBody: Buffer | string, securityKey: string): string {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(rawBody), Buffer.from(`/${securityKey}`)]))
    .digest('hex');
}

/**
 * 17TRACK Tracking API v2.2 (shared/carrier-apis.md section 1): JSON POSTs under
 * `/track/v2.2`, `17token` header, 40 numbers per call, `{code, data: {accepted, rejected}}`
 * envelopes. An aggregator: numbers are registered once, then pushed (TRACKING_UPDATED) and
 * polled with gettrackinfo as a safety net; stoptrack at a final status.
 */
export const seventeenTrackAdapter: ProviderAdapter = {
  type: '17track',
  defaultBaseUrl: 'https://api.17track.net/track/v2.2',
  maxBatchSize: SEVENTEEN_TRACK_BATCH,
  carriers: null,
  /** 3 requests/second per key: third-party sources only (UNCONFIRMED). */
  requestsPerSecond: 3,

  async register(ctx, requests) {
    const envelope = await call(ctx, '/register', requests);
    const out = new Map<string, TrackingProviderError | null>();
    for (const item of envelope.data?.accepted ?? []) if (item.number) out.set(item.number, null);
    for (const item of envelope.data?.rejected ?? []) {
      if (!item.number) continue;
      const code = item.error?.code;
      out.set(
        item.number,
        code === SeventeenTrackErrors.alreadyRegistered
          ? null
          : TrackingProviderError.permanent(
              `17track refused to register ${item.number}: ${reasonOf(item.error)}`,
              { provider: '17track', detail: detailOf(item.error) },
            ),
      );
    }
    return out;
  },

  async track(ctx, requests) {
    const envelope = await call(ctx, '/gettrackinfo', requests);
    const carriers = new Map(requests.map((r) => [r.trackingNumber, r.carrierCode]));
    const out = new Map<string, ProviderOutcome>();
    for (const item of envelope.data?.accepted ?? []) {
      if (!item.number) continue;
      const key = typeof item.carrier === 'number' ? item.carrier : null;
      out.set(
        item.number,
        mapTrackInfo(item.track_info, {
          carrierKey: key,
          carrierCode: carrierOfSeventeenTrackKey(key) ?? carriers.get(item.number) ?? null,
        }),
      );
    }
    for (const item of envelope.data?.rejected ?? []) {
      if (!item.number) continue;
      out.set(
        item.number,
        item.error?.code === SeventeenTrackErrors.notRegistered
          ? new ProviderNumberNotRegistered('17track', item.number)
          : TrackingProviderError.permanent(
              `17track could not track ${item.number}: ${reasonOf(item.error)}`,
              { provider: '17track', detail: detailOf(item.error) },
            ),
      );
    }
    return out;
  },

  async stop(ctx, requests) {
    const envelope = await call(ctx, '/stoptrack', requests);
    const out: StopOutcomes = new Map();
    for (const item of envelope.data?.accepted ?? []) if (item.number) out.set(item.number, null);
    for (const item of envelope.data?.rejected ?? []) {
      if (!item.number) continue;
      // Not registered (any more), already stopped...: asking again would change nothing.
      out.set(
        item.number,
        TrackingProviderError.permanent(
          `17track could not stop ${item.number}: ${reasonOf(item.error)}`,
          { provider: '17track', detail: detailOf(item.error) },
        ),
      );
    }
    return out;
  },

  verifyPush(credentials: ProviderCredentials, push: PushRequest): boolean {
    const key = credentials.secrets.apiKey;
    const given = push.headers[SEVENTEEN_TRACK_SIGN_HEADER]?.trim().toLowerCase();
    if (!key || !given || !/^[0-9a-f]{64}$/.test(given)) return false;
    const expected = Buffer.from(seventeenTrackSignature(push.rawBody, key), 'hex');
    return timingSafeEqual(expected, Buffer.from(given, 'hex'));
  },

  parsePush(body: unknown): PushedUpdate[] {
    if (typeof body !== 'object' || body === null) return [];
    const { event, data } = body as {
      event?: unknown;
      data?: { number?: unknown; carrier?: unknown; track_info?: SeventeenTrackInfo };
    };
    // TRACKING_STOPPED carries no tracking; anything else is not ours to apply.
    if (event !== 'TRACKING_UPDATED' || !data || typeof data.number !== 'string') return [];
    const key = typeof data.carrier === 'number' ? data.carrier : null;
    const carrierCode = carrierOfSeventeenTrackKey(key);
    return [
      {
        trackingNumber: data.number,
        carrierCode,
        result: mapTrackInfo(data.track_info, { carrierKey: key, carrierCode }),
      },
    ];
  },
};

/** One POST of up to 40 numbers; a whole-request error code is thrown as the right kind. */
async function call(
  ctx: ProviderCallContext,
  path: string,
  requests: readonly ProviderTrackRequest[],
): Promise<Envelope> {
  if (requests.length > SEVENTEEN_TRACK_BATCH) {
    throw TrackingProviderError.permanent(
      `17track takes ${SEVENTEEN_TRACK_BATCH} numbers per call`,
    );
  }
  const apiKey = ctx.credentials.secrets.apiKey;
  if (!apiKey) {
    throw new ProviderCredentialsRejected('17track', 401, '17track credentials have no apiKey');
  }
  const response = await ctx.http.request({
    method: 'POST',
    url: providerUrl(ctx, path),
    headers: { '17token': apiKey },
    json: requests.map((r) => {
      const carrier = seventeenTrackKeyOf(r.carrierCode);
      return carrier === undefined
        ? { number: r.trackingNumber }
        : { number: r.trackingNumber, carrier };
    }),
  });
  const envelope = (
    typeof response.body === 'object' && response.body !== null ? response.body : {}
  ) as Envelope;
  const code = typeof envelope.code === 'number' ? envelope.code : null;
  if (code === null) {
    throw TrackingProviderError.transient(`17track answered ${path} without a code`, {
      provider: '17track',
    });
  }
  if (code !== 0) {
    // UNCONFIRMED: shape of a whole-request error (code + data.errors[0].message assumed).
    const error = envelope.data?.errors?.[0] ?? { code, message: envelope.message };
    const message = `17track ${path} failed: ${reasonOf({ code })}`;
    const detail = detailOf(error);
    if (CREDENTIAL_ERRORS.has(code))
      throw new ProviderCredentialsRejected('17track', 401, message, detail);
    if (code === SeventeenTrackErrors.internal) {
      throw TrackingProviderError.transient(message, { provider: '17track', detail });
    }
    throw TrackingProviderError.permanent(message, { provider: '17track', detail });
  }
  return envelope;
}

/** A known error code in our words (with the code), else a fixed word. */
function reasonOf(error: { code?: unknown } | undefined): string {
  const code = error?.code;
  if (typeof code === 'number' && Object.prototype.hasOwnProperty.call(ERROR_WORDS, code))
    return `${ERROR_WORDS[code]} (${code})`;
  return 'error';
}

/** What 17TRACK said, for the operator only. */
function detailOf(error: { code?: unknown; message?: unknown } | undefined): string | null {
  return providerDetail(error?.code, error?.message);
}
