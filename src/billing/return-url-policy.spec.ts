import { originsOf, returnUrlAllowed } from './return-url-policy';

const OWN = ['https://api.example.com', 'https://track.example.com'];
const DOMAINS = ['track.shop.example'];

describe('returnUrlAllowed', () => {
  it('takes the service’s own origins, exactly', () => {
    for (const url of [
      'https://api.example.com/app/billing?tab=plan',
      'https://API.example.com',
      'https://track.example.com/x#y',
    ])
      expect(returnUrlAllowed(url, OWN, DOMAINS)).toBe(true);
    for (const url of [
      'http://api.example.com/app',
      'https://api.example.com:8443/app',
      'https://api.example.com.evil.example/app',
      'https://evil.example/https://api.example.com',
      'https://user:pw@api.example.com/app',
      '//evil.example/app',
      'javascript:alert(1)',
      'not a url',
    ])
      expect(returnUrlAllowed(url, OWN, DOMAINS)).toBe(false);
  });

  it('takes https on the default port of a verified custom domain only', () => {
    expect(returnUrlAllowed('https://Track.Shop.Example/thanks', OWN, DOMAINS)).toBe(true);
    expect(returnUrlAllowed('http://track.shop.example/thanks', OWN, DOMAINS)).toBe(false);
    expect(returnUrlAllowed('https://track.shop.example:444/', OWN, DOMAINS)).toBe(false);
    expect(returnUrlAllowed('https://x.track.shop.example/', OWN, DOMAINS)).toBe(false);
    expect(returnUrlAllowed('https://shop.example/', OWN, DOMAINS)).toBe(false);
  });
});

describe('originsOf', () => {
  it('keeps each configured base URL’s origin once, skipping unset ones', () => {
    expect(
      originsOf(['https://api.example.com/', undefined, 'https://api.example.com/base', 'x']),
    ).toEqual(['https://api.example.com']);
    expect(originsOf(['http://localhost:8080'])).toEqual(['http://localhost:8080']);
  });
});
