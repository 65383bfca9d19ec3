import { isPublicAddress } from './address-guard';
import { shopUrl } from './themes.controller';

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['::', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['not-an-ip', false],
  ])('%s -> %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

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
