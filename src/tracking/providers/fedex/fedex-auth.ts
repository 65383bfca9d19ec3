import type {
  ProviderCallContext,
  ProviderHttpRequest,
  ProviderHttpResponse,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { fedexSettings } from './fedex-settings';

export const FEDEX_TOKEN_PATH = '/oauth/token';

export function fedexUrl(ctx: ProviderCallContext, path: string): string {
  return `${ctx.credentials.baseUrl.replace(/\/+$/, '')}${path}`;
}

/** OAuth client credentials, all in the form body (`client_id` = API key). */
export async function fetchFedexToken(
  ctx: ProviderCallContext,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const settings = fedexSettings(ctx.credentials);
  const res = await ctx.http.request({
    method: 'POST',
    url: fedexUrl(ctx, FEDEX_TOKEN_PATH),
    form: {
      grant_type: 'client_credentials',
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
    },
  });
  const body = (res.body ?? {}) as { access_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw TrackingProviderError.transient('FedEx token answer carries no access_token', {
      provider: 'fedex',
    });
  }
  const expiresInSeconds = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    expiresInSeconds:
      Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds : 60,
  };
}

/**
 * Sends a request with the cached bearer token; on a 401 (NOT.AUTHORIZED.ERROR: token expired
 * or revoked) the token is dropped, renewed and the request sent once more. A second 401 reaches
 * ProviderHttp, which reports the credentials as rejected.
 */
export async function fedexAuthorized(
  ctx: ProviderCallContext,
  build: (token: string) => ProviderHttpRequest,
): Promise<ProviderHttpResponse> {
  const id = ctx.credentials.id;
  const send = async (retry: boolean) => {
    const token = await ctx.tokens.get(id, () => fetchFedexToken(ctx));
    const req = build(token);
    const accept = req.acceptStatuses ?? [];
    return ctx.http.request({ ...req, acceptStatuses: retry ? accept : [...accept, 401] });
  };
  const first = await send(false);
  if (first.status !== 401) return first;
  ctx.tokens.invalidate(id);
  return send(true);
}
