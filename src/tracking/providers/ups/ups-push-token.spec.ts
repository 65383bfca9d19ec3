import type { ProviderCredentials } from '../remote/provider-adapter';
import { issueUpsPushToken, UPS_PUSH_TOKEN_TTL_SECONDS, validUpsPushToken } from './ups-push-token';

const NOW = new Date('2026-03-10T12:00:00Z');
const credentials: ProviderCredentials = {
  id: '6b0d1c2e-0000-4000-8000-000000000001',
  type: 'ups',
  baseUrl: 'https://onlinetools.ups.com',
  parameters: { clientId: 'ups-app' },
  secrets: { clientSecret: 'ups-secret', webhookSecret: 'push-secret' },
};
const ask = (over: Partial<Parameters<typeof issueUpsPushToken>[1]> = {}) =>
  issueUpsPushToken(credentials, {
    clientId: credentials.id,
    clientSecret: 'push-secret',
    grantType: 'client_credentials',
    now: NOW,
    ...over,
  });

describe('UPS push tokens (our token URL for Track Alert v2)', () => {
  it('issues an hour-long token to the credentials id with the webhook secret', () => {
    const answer = ask();
    expect(answer).toMatchObject({ expiresInSeconds: UPS_PUSH_TOKEN_TTL_SECONDS });
    expect(UPS_PUSH_TOKEN_TTL_SECONDS).toBe(3600);
    const token = (answer as { accessToken: string }).accessToken;
    expect(validUpsPushToken(credentials, token, NOW)).toBe(true);
    expect(validUpsPushToken(credentials, token, new Date(NOW.getTime() + 3599_000))).toBe(true);
    expect(validUpsPushToken(credentials, token, new Date(NOW.getTime() + 3600_000))).toBe(false);
  });

  it('refuses a wrong client id or secret, no secret set, and other grants', () => {
    expect(ask({ clientId: 'ups-app' })).toEqual({ error: 'invalid_client' });
    expect(ask({ clientSecret: 'push-secreT' })).toEqual({ error: 'invalid_client' });
    expect(ask({ clientSecret: null })).toEqual({ error: 'invalid_client' });
    expect(ask({ clientId: null })).toEqual({ error: 'invalid_client' });
    expect(
      issueUpsPushToken(
        { ...credentials, secrets: { clientSecret: 'ups-secret' } },
        { clientId: credentials.id, clientSecret: '', grantType: 'client_credentials', now: NOW },
      ),
    ).toEqual({ error: 'invalid_client' });
    expect(ask({ grantType: 'password' })).toEqual({ error: 'unsupported_grant_type' });
    expect(ask({ grantType: null })).toEqual({ error: 'unsupported_grant_type' });
  });

  it('refuses tampered or foreign tokens', () => {
    const token = (ask() as { accessToken: string }).accessToken;
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(`${credentials.id}:9999999999`).toString('base64url');
    expect(validUpsPushToken(credentials, `${forged}.${mac}`, NOW)).toBe(false);
    expect(validUpsPushToken(credentials, `${payload}.${mac}.x`, NOW)).toBe(false);
    expect(validUpsPushToken(credentials, payload, NOW)).toBe(false);
    expect(validUpsPushToken(credentials, '', NOW)).toBe(false);
    expect(validUpsPushToken({ ...credentials, id: 'other' }, token, NOW)).toBe(false);
    const rotated = { ...credentials, secrets: { webhookSecret: 'new-secret' } };
    expect(validUpsPushToken(rotated, token, NOW)).toBe(false);
  });
});
