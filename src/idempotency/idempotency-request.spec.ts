import { isStoredStatus, isValidIdempotencyKey, requestFingerprint } from './idempotency-request';

describe('idempotency requests', () => {
  it('takes keys of 1 to 255 visible ASCII characters', () => {
    expect(isValidIdempotencyKey('7e0c5a1e-0000-4000-8000-00000000beef')).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(256))).toBe(false);
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('has space')).toBe(false);
    expect(isValidIdempotencyKey('caf\u00e9')).toBe(false);
  });

  it('fingerprints the body bytes, the media type and the query string', () => {
    const base = {
      query: '',
      contentType: 'application/ld+json',
      rawBody: Buffer.from('{"a":1}'),
      body: { a: 1 },
    };
    const same = requestFingerprint({ ...base, contentType: 'application/ld+json; charset=utf-8' });
    expect(requestFingerprint(base)).toBe(same);
    expect(requestFingerprint({ ...base, rawBody: Buffer.from('{"a":2}') })).not.toBe(same);
    expect(requestFingerprint({ ...base, query: '?x=1' })).not.toBe(same);
    expect(requestFingerprint({ ...base, contentType: 'application/json' })).not.toBe(same);
    // Without the bytes (multipart fields), the parsed body decides.
    const fields = { ...base, rawBody: undefined };
    expect(requestFingerprint(fields)).toBe(requestFingerprint({ ...fields }));
    expect(requestFingerprint({ ...fields, body: { a: 2 } })).not.toBe(requestFingerprint(fields));
  });

  it("fingerprints each uploaded file's field, name, type and bytes", () => {
    const form = { query: '', contentType: 'multipart/form-data', rawBody: undefined, body: {} };
    const file = (bytes: string, originalname = 'feed.csv') => ({
      fieldname: 'file',
      originalname,
      mimetype: 'text/csv',
      buffer: Buffer.from(bytes),
    });
    const one = requestFingerprint({ ...form, files: [file('a,b\n1,2\n')] });
    expect(requestFingerprint({ ...form, files: [file('a,b\n1,2\n')] })).toBe(one);
    expect(requestFingerprint({ ...form, files: [file('a,b\n1,3\n')] })).not.toBe(one);
    expect(requestFingerprint({ ...form, files: [file('a,b\n1,2\n', 'other.csv')] })).not.toBe(one);
    expect(requestFingerprint(form)).not.toBe(one);
    // Bytes moved from one file to the next are another request.
    expect(requestFingerprint({ ...form, files: [file('ab'), file('c')] })).not.toBe(
      requestFingerprint({ ...form, files: [file('a'), file('bc')] }),
    );
  });

  it('keeps every answer but server errors', () => {
    expect(isStoredStatus(201)).toBe(true);
    expect(isStoredStatus(422)).toBe(true);
    expect(isStoredStatus(500)).toBe(false);
    expect(isStoredStatus(503)).toBe(false);
  });
});
