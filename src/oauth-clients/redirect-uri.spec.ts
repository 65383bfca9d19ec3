import { isRedirectUri } from './redirect-uri';

describe('isRedirectUri', () => {
  it.each([
    'https://app.example.com/callback',
    'http://127.0.0.1:8000/cb?x=1',
    'com.example.app:/oauth2redirect',
  ])('accepts %s', (uri) => expect(isRedirectUri(uri)).toBe(true));

  it.each([
    '/relative',
    'https://app.example.com/cb#frag',
    'javascript:alert(1)',
    'not a url',
    'https://',
    42,
    null,
  ])('rejects %s', (uri) => expect(isRedirectUri(uri)).toBe(false));
});
