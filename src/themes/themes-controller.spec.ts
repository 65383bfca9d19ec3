import { shopUrl } from './themes.controller';

describe('shopUrl', () => {
  it('takes bare hosts as https and drops fragments', () => {
    expect(shopUrl(' acme.example/shop#top ')).toBe('https://acme.example/shop');
    expect(shopUrl('http://acme.example')).toBe('http://acme.example/');
  });

  it.each(['ftp://acme.example', 'javascript:alert(1)', 'https://user:pw@acme.example', 'http://'])(
    'refuses %s',
    (raw) => {
      expect(() => shopUrl(raw)).toThrow('This value is not a valid URL.');
    },
  );
});
