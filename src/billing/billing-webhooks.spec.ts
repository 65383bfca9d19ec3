import { billingSignature, signatureMatches } from './billing-webhooks';

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
});
