import { isTrackingType, trackingAccountChanged } from './credentials-retirement';

const seventeen = (parameters: Record<string, unknown>, secrets: Record<string, string>) => ({
  type: '17track',
  parameters,
  secrets,
});

describe('trackingAccountChanged', () => {
  const before = seventeen({ baseUrl: 'https://a.example' }, { apiKey: 'key-1' });

  it('is false when only routing or push settings change', () => {
    expect(
      trackingAccountChanged(
        before,
        seventeen(
          { baseUrl: 'https://a.example', isDefault: true, carriers: 'usps', requestsPerSecond: 2 },
          { apiKey: 'key-1', webhookSecret: 'new' },
        ),
      ),
    ).toBe(false);
  });

  it('is true for another type, server, API key or client/merchant id', () => {
    expect(trackingAccountChanged(before, { ...before, type: 'aftership' })).toBe(true);
    expect(
      trackingAccountChanged(before, seventeen({ baseUrl: 'https://b.example' }, before.secrets)),
    ).toBe(true);
    expect(trackingAccountChanged(before, seventeen(before.parameters, { apiKey: 'key-2' }))).toBe(
      true,
    );
    const ups = { type: 'ups', parameters: { clientId: 'a', merchantId: 'm' }, secrets: {} };
    expect(
      trackingAccountChanged(ups, { ...ups, parameters: { clientId: 'b', merchantId: 'm' } }),
    ).toBe(true);
    expect(
      trackingAccountChanged(ups, { ...ups, parameters: { clientId: 'a', merchantId: 'n' } }),
    ).toBe(true);
  });

  it('treats a missing value and an empty one alike', () => {
    expect(
      trackingAccountChanged(
        seventeen({}, { apiKey: 'k' }),
        seventeen({ baseUrl: '' }, { apiKey: 'k' }),
      ),
    ).toBe(false);
  });

  it('is false for credentials that are not a tracking provider', () => {
    const smtp = { type: 'smtp', parameters: { host: 'a' }, secrets: {} };
    expect(trackingAccountChanged(smtp, { ...smtp, parameters: { host: 'b' } })).toBe(false);
    expect(isTrackingType('smtp')).toBe(false);
    expect(isTrackingType('17track')).toBe(true);
    expect(isTrackingType(undefined)).toBe(false);
  });
});
