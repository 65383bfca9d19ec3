import type {
  ProviderCallContext,
  ProviderHttpRequest,
  ProviderHttpResponse,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { uspsSettings } from './usps-settings';

export const USPS_TOKEN_PATH = '/oauth2/v3/token';

export function uspsUrl(ctx: ProviderCallContext, path: string): string {
  return `${ctx.credentials.baseUrl.replace(/\/+$/, '')}${path}`;
}

/** OAuth client credentials as a JSON body (the official example's form). */
export async function fetchUspsToken(
  ctx: ProviderCallContext,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const settings = uspsSettings(ctx.credentials);
  const res = await ctx.http.request({
    method: 'POST',
    url: uspsUrl(ctx, USPS_TOKEN_PATH),
    json: {
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      grant_type: 'client_credentials',
    },
  });
  const body = (res.body ?? {}) as { access_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw TrackingProviderError.transient('USPS token answer carries no access_token', {
      provider: 'usps',
    });
  }
  // expires_in comes as a string of seconds ("28799").
  const expiresInSeconds = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    expiresInSeconds:
      Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds : 60,
  };
}

/**
 * Sends a request with the cached bearer token; a 401 drops the token, renews it and sends the
 * request once more. A second 401 reaches ProviderHttp, which reports the credentials as rejected.
 */
export async function uspsAuthorized(
  ctx: ProviderCallContext,
  build: (token: string) => ProviderHttpRequest,
): Promise<ProviderHttpResponse> {
  const id = ctx.credentials.id;
  const send = async (retry: boolean) => {
    const token = await ctx.tokens.get(id, () => fetchUspsToken(ctx));
    const req = build(token);
    const accept = req.acceptStatuses ?? [];
    return ctx.http.request({ ...req, acceptStatuses: retry ? accept : [...accept, 401] });
  };
  const first = await send(false);
  if (first.status !== 401) return first;
  ctx.tokens.invalidate(id);
  return send(true);
}
