import { bareHost, isPrivateAddress } from './address-policy';

describe('isPrivateAddress', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.10',
    '127.0.0.1',
    '127.10.20.30',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:7f00:1',
    '2002:7f00:1::1',
    '64:ff9b:1::a00:1',
    '64:ff9b::10.0.0.1',
    '2001:db8::1',
    '198.51.100.7',
    '192.88.99.1',
    '[::1]',
    // IPv4-compatible IPv6 (::/96): the IPv4 address in IPv6 clothes.
    '::127.0.0.1',
    '::a00:1',
    '::7f00:1',
    '::169.254.169.254',
    '::8.8.8.8',
    '0:0:0:0:0:0:c0a8:101',
    'not-an-ip',
  ])('blocks %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::1:0:0:1',
  ])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('bareHost', () => {
  it('strips IPv6 brackets and lower-cases', () => {
    expect(bareHost('[::1]')).toBe('::1');
    expect(bareHost('Hooks.Example.COM')).toBe('hooks.example.com');
  });
});
