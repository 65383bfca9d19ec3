import type { IncomingMessage } from 'http';
import { bearerToken } from './bearer-token';

const request = (
  headers: Record<string, string>,
  extra: { body?: unknown; query?: Record<string, unknown> } = {},
) => ({ headers, query: {}, ...extra }) as unknown as IncomingMessage;

describe('bearerToken (RFC 6750)', () => {
  it('reads the Authorization header, scheme case-insensitive', () => {
    expect(bearerToken(request({ authorization: 'Bearer abc.DEF-12_~+/=' }))).toBe(
      'abc.DEF-12_~+/=',
    );
    expect(bearerToken(request({ authorization: 'bearer tok' }))).toBe('tok');
  });

  it.each(['Bearer', 'Bearer ', 'Bearer a b', 'Bearer tök', 'Bearer ,x'])(
    'refuses the malformed header %j',
    (authorization) => expect(bearerToken(request({ authorization }))).toBeNull(),
  );

  it('ignores other schemes and requests without a token', () => {
    expect(bearerToken(request({ authorization: 'Basic dXNlcjpwYXNz' }))).toBeNull();
    expect(bearerToken(request({}))).toBeNull();
  });

  it('reads access_token from a form body, not from a JSON body', () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };
    expect(bearerToken(request(form, { body: { access_token: 'tok' } }))).toBe('tok');
    const json = { 'content-type': 'application/json' };
    expect(bearerToken(request(json, { body: { access_token: 'tok' } }))).toBeNull();
  });

  it('reads access_token from the query', () => {
    expect(bearerToken(request({}, { query: { access_token: 'tok' } }))).toBe('tok');
    expect(bearerToken(request({}, { query: { access_token: ['a', 'b'] } }))).toBeNull();
    expect(bearerToken(request({}, { query: { access_token: '' } }))).toBeNull();
  });

  it('refuses a token sent by more than one method', () => {
    expect(
      bearerToken(request({ authorization: 'Bearer a' }, { query: { access_token: 'a' } })),
    ).toBeNull();
  });
});
