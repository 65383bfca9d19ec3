import express from 'express';
import { ConfigError, loadConfig } from './load-config';
import { parseTrustProxy } from './trust-proxy';

/** Express's own view of a value: compiles it as `app.set('trust proxy', value)` does. */
function trusts(value: unknown, address: string, hop = 0): boolean {
  const app = express();
  app.set('trust proxy', value);
  return (app.get('trust proxy fn') as (addr: string, i: number) => boolean)(address, hop);
}

describe('parseTrustProxy', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['0', 0],
    ['1', 1],
    [' 2 ', 2],
    ['loopback', ['loopback']],
    ['LoopBack', ['loopback']],
    ['loopback, linklocal,uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 192.168.1.0/255.255.255.0', ['10.0.0.0/8', '192.168.1.0/255.255.255.0']],
    ['::1, fd00::/8, ::ffff:10.0.0.1', ['::1', 'fd00::/8', '::ffff:10.0.0.1']],
    ['loopback,', ['loopback']],
  ])('reads %j as %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual({ value: expected });
  });

  it.each([
    'yes',
    '-1',
    '1.5',
    '99999999999999999999',
    ',',
    'proxy.internal',
    'localhost',
    '10.0.0',
    '10.0.0.256',
    '10.0.0.0/0',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    '::1/129',
    '::1/255.0.0.0',
    '10.0.0.0/255.0.255.0',
    '10.0.0.0/0.0.0.0',
    'fe80::1%eth0',
    'loopback;10.0.0.1',
  ])('refuses %j', (raw) => {
    expect(parseTrustProxy(raw)).toEqual({ error: expect.stringMatching(/^must be true, false/) });
  });

  it('names the entry it refuses', () => {
    expect(parseTrustProxy('loopback, 10.0.0.0/99')).toEqual({
      error: expect.stringContaining('(not one: "10.0.0.0/99")'),
    });
  });

  it('gives Express only values it accepts, meaning what they say', () => {
    for (const raw of ['true', '0', '2', 'loopback,uniquelocal', '192.168.1.0/255.255.255.0']) {
      const parsed = parseTrustProxy(raw);
      if ('error' in parsed) throw new Error(parsed.error);
      expect(() => trusts(parsed.value, '127.0.0.1')).not.toThrow();
    }
    const value = (raw: string) => (parseTrustProxy(raw) as { value: unknown }).value;
    expect(trusts(value('1'), '203.0.113.9', 0)).toBe(true);
    expect(trusts(value('1'), '203.0.113.9', 1)).toBe(false);
    expect(trusts(value('loopback'), '127.0.0.1')).toBe(true);
    expect(trusts(value('loopback'), '10.0.0.1')).toBe(false);
    expect(trusts(value('fd00::/8,10.0.0.0/8'), '10.1.2.3')).toBe(true);
    expect(trusts(value('192.168.1.0/255.255.255.0'), '192.168.1.77')).toBe(true);
    expect(trusts(value('192.168.1.0/255.255.255.0'), '192.168.2.77')).toBe(false);
    expect(trusts(value('false'), '127.0.0.1')).toBe(false);
  });
});

describe('TRUST_PROXY', () => {
  it('is unset by default: Express keeps trusting no proxy', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBeUndefined();
  });

  it('is read into the configuration', () => {
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });

  it('stops start-up with one line naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'nginx' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'nginx' })).toThrow(
      /^Invalid configuration: TRUST_PROXY="nginx" must be true, false, a hop count .*loopback, linklocal, uniquelocal \(not one: "nginx"\)$/,
    );
  });
});
