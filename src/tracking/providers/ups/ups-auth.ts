import {
  clientCredentialsSender,
  providerUrl,
  type OAuthClientCredentials,
} from '../remote/oauth-client-credentials';
import { upsSettings } from './ups-settings';

export const UPS_TOKEN_PATH = '/security/v1/oauth/token';

export { providerUrl as upsUrl };

/** OAuth client credentials: HTTP Basic client id:secret, form `grant_type=client_credentials`. */
const UPS_OAUTH: OAuthClientCredentials = {
  provider: 'ups',
  label: 'UPS',
  tokenPath: UPS_TOKEN_PATH,
  tokenRequest(ctx) {
    const settings = upsSettings(ctx.credentials);
    const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
    return {
      headers: {
        Authorization: `Basic ${basic}`,
        ...(settings.merchantId ? { 'x-merchant-id': settings.merchantId } : {}),
      },
      form: { grant_type: 'client_credentials' },
    };
  },
};

/** A request with the cached bearer token, renewed once on a 401 (UPS UJ0001 / 251004). */
export const upsAuthorized = clientCredentialsSender(UPS_OAUTH);
