import {
  clientCredentialsSender,
  providerUrl,
  type OAuthClientCredentials,
} from '../remote/oauth-client-credentials';
import { fedexSettings } from './fedex-settings';

export const FEDEX_TOKEN_PATH = '/oauth/token';

export { providerUrl as fedexUrl };

/** OAuth client credentials, all in the form body (`client_id` = API key). */
const FEDEX_OAUTH: OAuthClientCredentials = {
  provider: 'fedex',
  label: 'FedEx',
  tokenPath: FEDEX_TOKEN_PATH,
  tokenRequest(ctx) {
    const settings = fedexSettings(ctx.credentials);
    return {
      form: {
        grant_type: 'client_credentials',
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
      },
    };
  },
};

/** A request with the cached bearer token, renewed once on a 401 (NOT.AUTHORIZED.ERROR). */
export const fedexAuthorized = clientCredentialsSender(FEDEX_OAUTH);
