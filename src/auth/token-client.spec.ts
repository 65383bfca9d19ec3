import { basicCredentials, tokenClient } from './token-client';

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

describe('tokenClient', () => {
  it('is the Basic user name when Basic is used, else the client_id parameter', () => {
    expect(tokenClient(basic('abc:s3cret'), {})).toMatchObject({ clientId: 'abc' });
    expect(tokenClient(undefined, { client_id: 'xyz' })).toEqual({ clientId: 'xyz', basic: null });
    expect(tokenClient(undefined, { client_id: ['a', 'b'] })).toEqual({
      clientId: null,
      basic: null,
    });
    expect(tokenClient('Bearer abc', { client_id: 'xyz' })).toMatchObject({ clientId: 'xyz' });
  });

  it('reads an encoded Basic id as the decoded one, so encodings share a budget', () => {
    expect(tokenClient(basic('a%62c:x'), {})).toMatchObject({ clientId: 'abc' });
    expect(tokenClient(basic('a%62c:x'), { client_id: 'abc' })).toMatchObject({ clientId: 'abc' });
    expect(tokenClient(basic('a%62c:x'), { client_id: 'a%62c' })).toMatchObject({
      clientId: 'abc',
    });
    // Not decodable: as sent.
    expect(tokenClient(basic('a%zz:x'), {})).toMatchObject({ clientId: 'a%zz' });
  });

  it('is invalid with two different clients, or Basic without id:secret', () => {
    // Counted as the Basic client all the same: a made-up client_id buys no budget.
    expect(tokenClient(basic('abc:s'), { client_id: 'other' })).toMatchObject({
      clientId: 'abc',
      invalid: expect.stringMatching(/client_id/),
    });
    expect(tokenClient(basic('no-colon'), { client_id: 'abc' })).toMatchObject({
      invalid: expect.stringMatching(/malformed/),
    });
    expect(tokenClient(basic('abc:s'), { client_id: 'abc' }).invalid).toBeUndefined();
  });
});

describe('basicCredentials', () => {
  it('splits at the first colon and form-decodes when that differs', () => {
    expect(basicCredentials(basic('id:pa:ss'))).toEqual({
      id: 'id',
      secret: 'pa:ss',
      decoded: null,
    });
    expect(basicCredentials(basic('i+d:p%3As'))).toEqual({
      id: 'i+d',
      secret: 'p%3As',
      decoded: { id: 'i d', secret: 'p:s' },
    });
    expect(basicCredentials(undefined)).toBeNull();
    expect(basicCredentials(basic('nothing'))).toBe('malformed');
  });
});
