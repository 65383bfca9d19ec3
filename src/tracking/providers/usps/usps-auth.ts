import {
  clientCredentialsSender,
  providerUrl,
  type OAuthClientCredentials,
} from '../remote/oauth-client-credentials';
import { uspsSettings } from './usps-settings';

export const USPS_TOKEN_PATH = '/oauth2/v3/token';

export { providerUrl as uspsUrl };

/** OAuth client credentials as a JSON body (the official example's form). */
const USPS_OAUTH: OAuthClientCredentials = {
  provider: 'usps',
  label: 'USPS',
  tokenPath: USPS_TOKEN_PATH,
  tokenRequest(ctx) {
    const settings = uspsSettings(ctx.credentials);
    return {
      json: {
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        grant_type: 'client_credentials',
      },
    };
  },
};

/** A request with the cached bearer token, renewed once on a 401. */
export const uspsAuthorized = clientCredentialsSender(USPS_OAUTH);
