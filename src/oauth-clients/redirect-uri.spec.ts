import { isRedirectUri } from './redirect-uri';

describe('isRedirectUri', () => {
  it.each([
    'https://app.example.com/callback',
    'http://127.0.0.1:8000/cb?x=1',
    'http://[::1]:5000/cb',
    'http://localhost:3000/cb',
    'com.example.app:/oauth2redirect',
  ])('accepts %s', (uri) => expect(isRedirectUri(uri)).toBe(true));

  it.each([
    '/relative',
    'https://app.example.com/cb#frag',
    'http://app.example.com/cb',
    'http://10.0.0.1/cb',
    'myapp:/cb',
    'javascript:alert(1)',
    'data:text/html,x',
    'not a url',
    'https://',
    42,
    null,
  ])('rejects %s', (uri) => expect(isRedirectUri(uri)).toBe(false));
});
