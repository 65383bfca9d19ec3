import { domainChanged, isHostname, subdomainFormProblem } from './subdomain';

describe('subdomainFormProblem', () => {
  it.each(['abc', 'my-shop', 'a1b', '1shop2', 'a'.repeat(63)])('accepts %s', (value) => {
    expect(subdomainFormProblem(value)).toBeNull();
  });
  it.each(['ab', '-shop', 'shop-', 'My-shop', 'my_shop', 'my.shop', 'shöp', ''])(
    'rejects %j',
    (value) => {
      expect(subdomainFormProblem(value)).toBe('This value is not valid.');
    },
  );
  it('rejects more than 63 characters', () => {
    expect(subdomainFormProblem('a'.repeat(64))).toMatch(/too long/);
  });
});

describe('isHostname', () => {
  it.each(['track.example.com', 'a.io', 'my-shop.co.uk'])('accepts %s', (v) =>
    expect(isHostname(v)).toBe(true),
  );
  it.each(['localhost', 'http://x.com', 'x..com', '-a.com', 'a.com/', 'exa mple.com'])(
    'rejects %s',
    (v) => expect(isHostname(v)).toBe(false),
  );
});

describe('domainChanged', () => {
  it('ignores case, and sees a domain set, changed or removed', () => {
    expect(domainChanged('shop.example.com', 'Shop.Example.COM')).toBe(false);
    expect(domainChanged(null, null)).toBe(false);
    expect(domainChanged(null, 'shop.example.com')).toBe(true);
    expect(domainChanged('shop.example.com', 'other.example.com')).toBe(true);
    expect(domainChanged('shop.example.com', null)).toBe(true);
  });
});
