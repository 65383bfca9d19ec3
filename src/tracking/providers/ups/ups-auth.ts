import type {
  ProviderCallContext,
  ProviderHttpRequest,
  ProviderHttpResponse,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { upsSettings } from './ups-settings';

export const UPS_TOKEN_PATH = '/security/v1/oauth/token';

export function upsUrl(ctx: ProviderCallContext, path: string): string {
  return `${ctx.credentials.baseUrl.replace(/\/+$/, '')}${path}`;
}

/** OAuth client credentials: HTTP Basic client id:secret, form `grant_type=client_credentials`. */
export async function fetchUpsToken(
  ctx: ProviderCallContext,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const settings = upsSettings(ctx.credentials);
  const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
  const res = await ctx.http.request({
    method: 'POST',
    url: upsUrl(ctx, UPS_TOKEN_PATH),
    headers: {
      Authorization: `Basic ${basic}`,
      ...(settings.merchantId ? { 'x-merchant-id': settings.merchantId } : {}),
    },
    form: { grant_type: 'client_credentials' },
  });
  const body = (res.body ?? {}) as { access_token?: unknown; expires_in?: unknown };
  const expiresInSeconds = Number(body.expires_in);
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw TrackingProviderError.transient('UPS token answer carries no access_token', {
      provider: 'ups',
    });
  }
  return {
    accessToken: body.access_token,
    // expires_in is a string of seconds ("14399"); an unreadable one means "use it briefly".
    expiresInSeconds:
      Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds : 60,
  };
}

/**
 * Sends a request with the cached bearer token. A 401 means the token went stale (UPS
 * UJ0001 / 251004): it is dropped, a new one fetched and the request sent once more; a second
 * 401 reaches ProviderHttp, which reports the credentials as rejected.
 */
export async function upsAuthorized(
  ctx: ProviderCallContext,
  build: (token: string) => ProviderHttpRequest,
): Promise<ProviderHttpResponse> {
  const id = ctx.credentials.id;
  const send = async (retry: boolean) => {
    const token = await ctx.tokens.get(id, () => fetchUpsToken(ctx));
    const req = build(token);
    const accept = req.acceptStatuses ?? [];
    return ctx.http.request({ ...req, acceptStatuses: retry ? accept : [...accept, 401] });
  };
  const first = await send(false);
  if (first.status !== 401) return first;
  ctx.tokens.invalidate(id);
  return send(true);
}
