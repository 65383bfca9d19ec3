import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  ProviderCredentials,
  PushTokenAnswer,
  PushTokenRequest,
} from '../remote/provider-adapter';
import { upsWebhookSecret } from './ups-settings';

/** Lifetime of the tokens UPS gets from our token URL (it asks again when one expires). */
export const UPS_PUSH_TOKEN_TTL_SECONDS = 3600;
/** Keeps these MACs apart from any other use of the same secret. */
const PURPOSE = 'ups-track-alert-push-token';

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`${PURPOSE}\n${payload}`).digest();
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Track Alert v2 authenticates its pushes with an OAuth token UPS gets from the subscriber's
 * token URL (client credentials, HTTP Basic), as set in the UPS portal's "Manage Webhook
 * Credentials": our `POST /public/tracking_webhooks/ups/{credentialsId}/token`, client id the
 * credentials id, client secret the credentials' `webhookSecret`. The token is stateless:
 * `<payload>.<mac>`, the payload naming the credentials and the expiry, the MAC an HMAC-SHA256
 * under the webhook secret; changing the secret revokes every token issued with it.
 */
export function issueUpsPushToken(
  credentials: ProviderCredentials,
  request: PushTokenRequest,
): PushTokenAnswer {
  const secret = upsWebhookSecret(credentials);
  if (
    !secret ||
    request.clientId === null ||
    request.clientSecret === null ||
    !sameText(request.clientId, credentials.id) ||
    !sameText(request.clientSecret, secret)
  ) {
    return { error: 'invalid_client' };
  }
  if (request.grantType !== 'client_credentials') return { error: 'unsupported_grant_type' };
  const expires = Math.floor(request.now.getTime() / 1000) + UPS_PUSH_TOKEN_TTL_SECONDS;
  const payload = Buffer.from(`${credentials.id}:${expires}`, 'utf8').toString('base64url');
  return {
    accessToken: `${payload}.${mac(secret, payload).toString('base64url')}`,
    expiresInSeconds: UPS_PUSH_TOKEN_TTL_SECONDS,
  };
}

/** Whether `token` was issued for these credentials with their current secret, unexpired. */
export function validUpsPushToken(
  credentials: ProviderCredentials,
  token: string,
  now: Date,
): boolean {
  const secret = upsWebhookSecret(credentials);
  const [payload, signature, extra] = token.split('.');
  if (!secret || !payload || !signature || extra !== undefined) return false;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const decoded = Buffer.from(payload, 'base64url').toString('utf8');
  const split = decoded.lastIndexOf(':');
  const expires = Number(decoded.slice(split + 1));
  return (
    split > 0 &&
    decoded.slice(0, split) === credentials.id &&
    Number.isInteger(expires) &&
    expires * 1000 > now.getTime()
  );
}
