import type {
  ProviderCallContext,
  ProviderHttpRequest,
  ProviderHttpResponse,
  ProviderType,
} from './provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { providerUrl } from './provider-url';

export { providerUrl };

/** What differs between carriers using the OAuth 2.0 client-credentials grant. */
export interface OAuthClientCredentials {
  readonly provider: ProviderType;
  /** The provider's name in error messages ("UPS"). */
  readonly label: string;
  readonly tokenPath: string;
  /** Headers and body (form or JSON) of the token request, from the credentials. */
  tokenRequest(ctx: ProviderCallContext): Pick<ProviderHttpRequest, 'headers' | 'form' | 'json'>;
}

/** Asks the token endpoint for a new access token. */
export async function fetchClientCredentialsToken(
  ctx: ProviderCallContext,
  oauth: OAuthClientCredentials,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const res = await ctx.http.request({
    method: 'POST',
    url: providerUrl(ctx, oauth.tokenPath),
    ...oauth.tokenRequest(ctx),
  });
  const body = (res.body ?? {}) as { access_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw TrackingProviderError.transient(`${oauth.label} token answer carries no access_token`, {
      provider: oauth.provider,
    });
  }
  // expires_in may come as a string of seconds ("14399"); an unreadable one means "use it briefly".
  const expiresInSeconds = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    expiresInSeconds:
      Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds : 60,
  };
}

/**
 * A sender of requests with the bearer token cached in `ctx.tokens`. A 401 means the token went
 * stale (expired or revoked): it is dropped, a new one fetched and the request sent once more;
 * a second 401 reaches ProviderHttp, which reports the credentials as rejected.
 */
export function clientCredentialsSender(
  oauth: OAuthClientCredentials,
): (
  ctx: ProviderCallContext,
  build: (token: string) => ProviderHttpRequest,
) => Promise<ProviderHttpResponse> {
  return async (ctx, build) => {
    const id = ctx.credentials.id;
    const send = async (retry: boolean) => {
      const token = await ctx.tokens.get(id, () => fetchClientCredentialsToken(ctx, oauth));
      const req = build(token);
      const accept = req.acceptStatuses ?? [];
      return ctx.http.request({ ...req, acceptStatuses: retry ? accept : [...accept, 401] });
    };
    const first = await send(false);
    if (first.status !== 401) return first;
    ctx.tokens.invalidate(id);
    return send(true);
  };
}
