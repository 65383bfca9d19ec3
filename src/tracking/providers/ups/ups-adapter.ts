import type {
  ProviderAdapter,
  ProviderCallContext,
  ProviderOutcome,
  ProviderTrackRequest,
} from '../remote/provider-adapter';
import { trackOneByOne } from '../remote/track-one-by-one';
import { upsAuthorized, upsUrl } from './ups-auth';
import { findUpsPackage, mapUpsPackage } from './ups-mapping';
import { parseUpsPush, verifyUpsPush } from './ups-push';
import { issueUpsPushToken } from './ups-push-token';
import { UPS_LOCALE, UPS_TRANSACTION_SRC, upsTransId } from './ups-settings';
import { upsTrackAlert } from './ups-track-alert';

export const UPS_TRACK_PATH = '/api/track/v1/details/';

/** A tracking number UPS does not know (yet): no checkpoints, the engine says no_info. */
const NOT_FOUND = { checkpoints: [], facts: {} } as const;

async function trackOne(ctx: ProviderCallContext, number: string): Promise<ProviderOutcome> {
  const res = await upsAuthorized(ctx, (token) => ({
    method: 'GET',
    url: upsUrl(ctx, `${UPS_TRACK_PATH}${encodeURIComponent(number)}`),
    query: {
      locale: UPS_LOCALE,
      returnSignature: 'false',
      returnMilestones: 'false',
      returnPOD: 'false',
    },
    headers: {
      Authorization: `Bearer ${token}`,
      transId: upsTransId(),
      transactionSrc: UPS_TRANSACTION_SRC,
    },
    acceptStatuses: [404],
  }));
  if (res.status === 404) return NOT_FOUND;
  const pkg = findUpsPackage(res.body, number);
  return pkg ? mapUpsPackage(pkg) : NOT_FOUND;
}

/** One number per call (see trackOneByOne for how failures end the round). */
function track(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
): Promise<Map<string, ProviderOutcome>> {
  return trackOneByOne(ctx, requests, (c, req) => trackOne(c, req.trackingNumber));
}

export const upsAdapter: ProviderAdapter = {
  type: 'ups',
  defaultBaseUrl: 'https://onlinetools.ups.com',
  // The Track API takes one inquiry number per call.
  maxBatchSize: 1,
  carriers: ['ups'],
  track,
  // 1Z numbers of credentials with a webhookSecret: Track Alert pushes, polling goes on.
  pushSubscription: upsTrackAlert,
  issuePushToken: issueUpsPushToken,
  verifyPush: verifyUpsPush,
  parsePush: parseUpsPush,
};
