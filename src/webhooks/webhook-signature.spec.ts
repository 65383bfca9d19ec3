import { createHmac } from 'node:crypto';
import { signatureHeader, verifySignature } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test_0123456789';
  const body = '{"id":"e1","type":"shipment.status_changed"}';

  it('signs "<timestamp>.<raw body>" with HMAC-SHA256', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader(secret, 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verifies its own signatures and nothing else', () => {
    const header = signatureHeader(secret, 1700000000, body);
    expect(verifySignature(secret, header, body, 1700000100)).toBe(true);
    expect(verifySignature('other', header, body, 1700000100)).toBe(false);
    expect(verifySignature(secret, header, body + ' ', 1700000100)).toBe(false);
    expect(verifySignature(secret, header, body, 1700001000)).toBe(false); // too old
    expect(verifySignature(secret, 't=x,v1=zz', body, 1700000000)).toBe(false);
    expect(verifySignature(secret, '', body, 1700000000)).toBe(false);
  });
});
