import { homeHostOf, hostOfUrl } from './home-host';

describe('homeHostOf', () => {
  const hosts = {
    apiHosts: new Set(['localhost', 'api.example.com']),
    trackingHost: 'track.example.com',
  };

  it('reads a subdomain of the tracking host, else a custom domain', () => {
    expect(homeHostOf('Shop-1.Track.Example.com', hosts)).toEqual({
      subdomain: 'shop-1',
      domain: 'shop-1.track.example.com',
    });
    expect(homeHostOf('a.b.track.example.com', hosts)).toEqual({
      domain: 'a.b.track.example.com',
    });
    expect(homeHostOf('parcels.shop.example', hosts)).toEqual({ domain: 'parcels.shop.example' });
    expect(homeHostOf('parcels.shop.example', { ...hosts, trackingHost: null })).toEqual({
      domain: 'parcels.shop.example',
    });
  });

  it('leaves the API hosts and addresses to the API', () => {
    for (const host of ['localhost', 'api.example.com', '127.0.0.1', '::1', '', undefined])
      expect(homeHostOf(host, hosts)).toBeNull();
    expect(homeHostOf('track.example.com', hosts)).toEqual({ domain: 'track.example.com' });
  });

  it('takes hosts from configured URLs', () => {
    expect(hostOfUrl('https://Track.Example.com:8443/base')).toBe('track.example.com');
    expect(hostOfUrl('not a url')).toBeNull();
    expect(hostOfUrl(undefined)).toBeNull();
  });
});
