import { billingSignature, eventInstant, signatureMatches } from './billing-webhooks';
import { storefrontSignature } from './storefront-billing';

describe('billing webhook signatures', () => {
  const body = Buffer.from('{"id":"ev_1","event_type":"subscription_created"}');

  it('accepts the HMAC-SHA256 of the exact bytes, with or without the sha256= prefix', () => {
    const header = billingSignature('secret', body);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signatureMatches('secret', body, header)).toBe(true);
    expect(signatureMatches('secret', body, header.slice(7).toUpperCase())).toBe(true);
  });

  it('refuses other secrets, other bytes, and malformed or missing headers', () => {
    const header = billingSignature('secret', body);
    expect(signatureMatches('other', body, header)).toBe(false);
    expect(signatureMatches('secret', Buffer.from(`${body.toString()} `), header)).toBe(false);
    expect(signatureMatches('secret', body, undefined)).toBe(false);
    expect(signatureMatches('secret', body, 'sha256=abc')).toBe(false);
    expect(signatureMatches('secret', body, `${header}00`)).toBe(false);
  });

  it('checks the storefront app\u2019s base64 signature, and nothing else in its place', () => {
    const header = storefrontSignature('secret', body);
    expect(header).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(signatureMatches('secret', body, header, 'base64')).toBe(true);
    expect(signatureMatches('other', body, header, 'base64')).toBe(false);
    const hex = Buffer.from(header, 'base64').toString('hex');
    expect(signatureMatches('secret', body, hex, 'base64')).toBe(false);
    expect(signatureMatches('secret', body, `sha256=${hex}`, 'base64')).toBe(false);
    expect(signatureMatches('secret', body, header, 'hex')).toBe(false);
    expect(signatureMatches('secret', body, header.slice(0, -2), 'base64')).toBe(false);
  });

  it('reads event times as Unix seconds or ISO date-times, and nothing out of range', () => {
    expect(eventInstant(1700000000)).toEqual(new Date('2023-11-14T22:13:20Z'));
    expect(eventInstant('2024-01-02T03:04:05Z')).toEqual(new Date('2024-01-02T03:04:05Z'));
    for (const value of [1e308, Infinity, NaN, '2024-13-45T00:00:00Z', 'yesterday', null, {}])
      expect(eventInstant(value)).toBeNull();
  });
});
