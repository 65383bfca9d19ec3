import type { ProviderCredentials } from '../remote/provider-adapter';
import { parseUpsPush, verifyUpsPush } from './ups-push';
import { issueUpsPushToken } from './ups-push-token';

const credentials = (webhookSecret?: string): ProviderCredentials => ({
  id: 'c1',
  type: 'ups',
  baseUrl: 'https://onlinetools.ups.com',
  parameters: { clientId: 'id' },
  secrets: { clientSecret: 'secret', webhookSecret },
});

const NOW = new Date('2026-03-10T12:00:00Z');
const push = (headers: Record<string, string | undefined>, receivedAt = NOW) => ({
  headers,
  rawBody: Buffer.from('{}'),
  receivedAt,
});
/** A token our token URL gives UPS for these credentials. */
const tokenFor = (c: ProviderCredentials, now = NOW): string => {
  const answer = issueUpsPushToken(c, {
    clientId: c.id,
    clientSecret: c.secrets.webhookSecret ?? null,
    grantType: 'client_credentials',
    now,
  });
  if (!('accessToken' in answer)) throw new Error(answer.error);
  return answer.accessToken;
};

/** Official Track Alert example 7 (delivery), as UPS posts it. */
const DELIVERED = {
  trackingNumber: '1Z204W4R0308071865',
  localActivityDate: '20240423',
  localActivityTime: '095004',
  activityLocation: { city: 'CHARLOTTE', stateProvince: 'NC', postalCode: '28209', country: 'US' },
  activityStatus: { type: 'D', code: 'FS', description: 'Delivered', descriptionCode: '011' },
  scheduledDeliveryDate: '',
  actualDeliveryDate: '20240423',
  actualDeliveryTime: '095004',
  gmtActivityDate: '20240423',
  gmtActivityTime: '135004',
  deliveryStartTime: '',
  deliveryEndTime: '',
  deliveryTimeDescription: '',
};

describe('UPS Track Alert push', () => {
  it('accepts a bearer token our token URL issued for these credentials, unexpired', () => {
    const c = credentials('opaque-s3cret');
    const token = tokenFor(c);
    expect(verifyUpsPush(c, push({ authorization: `Bearer ${token}` }))).toBe(true);
    expect(verifyUpsPush(c, push({ authorization: `bearer ${token}`, 'x-api-key': 'c1' }))).toBe(
      true,
    );
    const later = new Date(NOW.getTime() + 3600_000);
    expect(verifyUpsPush(c, push({ authorization: `Bearer ${token}` }, later))).toBe(false);
  });

  it('refuses other tokens, another client id, the v1 credential header, no secret', () => {
    const c = credentials('opaque-s3cret');
    const token = tokenFor(c);
    expect(verifyUpsPush(c, push({ authorization: `Bearer ${token}x` }))).toBe(false);
    expect(verifyUpsPush(c, push({ authorization: token }))).toBe(false);
    expect(verifyUpsPush(c, push({ authorization: `Bearer ${token}`, 'x-api-key': 'c2' }))).toBe(
      false,
    );
    // Issued for other credentials, or before the secret changed.
    expect(
      verifyUpsPush(c, push({ authorization: `Bearer ${tokenFor({ ...c, id: 'c2' })}` })),
    ).toBe(false);
    expect(verifyUpsPush(credentials('rotated'), push({ authorization: `Bearer ${token}` }))).toBe(
      false,
    );
    expect(verifyUpsPush(c, push({ credential: 'opaque-s3cret' }))).toBe(false);
    expect(verifyUpsPush(c, push({ 'user-agent': 'UPSPubSubTrackingService' }))).toBe(false);
    expect(verifyUpsPush(credentials(undefined), push({ authorization: `Bearer ${token}` }))).toBe(
      false,
    );
  });

  it('maps a delivery event: GMT instant, delivered, place, raw status', () => {
    expect(parseUpsPush(DELIVERED)).toEqual([
      {
        trackingNumber: '1Z204W4R0308071865',
        carrierCode: 'ups',
        result: {
          checkpoints: [
            {
              externalId: 'ups:20240423T095004:FS:CHARLOTTE',
              checkpointDate: new Date('2024-04-23T13:50:04Z'),
              status: 'delivered',
              info: 'Delivered',
              location: 'CHARLOTTE, NC',
              countryIso2: 'US',
              carrierCode: 'ups',
              rel: 'origin',
              rawStatus: 'D/FS/011',
            },
          ],
          facts: {},
        },
      },
    ]);
  });

  it('trims the number (the official manifest example has a leading space) and keeps the schedule', () => {
    const [update] = parseUpsPush({
      trackingNumber: ' 1ZABCXYZ0112346789',
      localActivityDate: '20240422',
      localActivityTime: '212901',
      gmtActivityDate: '20240423',
      gmtActivityTime: '012901',
      activityLocation: { city: 'Hickory', stateProvince: 'NC', postalCode: '', country: 'US' },
      activityStatus: { type: 'I', code: 'OR', description: 'On the Way', descriptionCode: '005' },
      scheduledDeliveryDate: '20240423',
    });
    expect(update.trackingNumber).toBe('1ZABCXYZ0112346789');
    expect(update.result.checkpoints[0].status).toBe('in_transit');
    expect(update.result.facts).toEqual({ expectedDeliveryDate: new Date('2024-04-23T00:00:00Z') });
  });

  it('gives nothing for bodies that are not Track Alert events', () => {
    expect(parseUpsPush(null)).toEqual([]);
    expect(parseUpsPush('text')).toEqual([]);
    expect(parseUpsPush({})).toEqual([]);
    expect(parseUpsPush([{ trackingNumber: '' }, 42])).toEqual([]);
  });

  it('keeps an event with no readable date as an update without checkpoint', () => {
    const [update] = parseUpsPush({ trackingNumber: '1Z204W4R0308071865', activityStatus: {} });
    expect(update.result.checkpoints).toEqual([]);
  });
});
