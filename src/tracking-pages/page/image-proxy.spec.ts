import {
  ImageCache,
  RecentFailures,
  imageSignature,
  proxiableUrl,
  proxiedImagePath,
  validImageSignature,
} from './image-proxy';
import { pageImage } from './page-brand';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const url = 'https://cdn.shop.example/p/1.png?v=2';

describe('image proxy URLs', () => {
  it('takes http(s) URLs only, without credentials, not too long', () => {
    expect(proxiableUrl(url)).toBe(url);
    expect(proxiableUrl('http://cdn.shop.example/a.jpg#frag')).toBe(
      'http://cdn.shop.example/a.jpg',
    );
    for (const bad of [
      'ftp://cdn.shop.example/a.png',
      'data:image/png;base64,AAAA',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://user:pw@cdn.shop.example/a.png',
      '/relative.png',
      '',
      `https://cdn.shop.example/${'a'.repeat(2000)}`,
      42,
      null,
      ['https://cdn.shop.example/a.png'],
    ])
      expect(proxiableUrl(bad)).toBeNull();
  });

  it('signs the URL and verifies only its own signature', () => {
    const signature = imageSignature(key, url);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(validImageSignature(key, url, signature)).toBe(true);
    expect(validImageSignature(otherKey, url, signature)).toBe(false);
    expect(validImageSignature(key, `${url}&x=1`, signature)).toBe(false);
    const tampered = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expect(validImageSignature(key, url, tampered)).toBe(false);
    expect(validImageSignature(key, url, '')).toBe(false);
    expect(validImageSignature(key, url, undefined)).toBe(false);
    expect(validImageSignature(key, url, `${signature}x`)).toBe(false);
  });

  it('makes the page path with the encoded URL', () => {
    const path = proxiedImagePath(key, url)!;
    expect(path).toBe(`/public/images/${imageSignature(key, url)}?url=${encodeURIComponent(url)}`);
    const parsed = new URL(path, 'http://app.example');
    expect(parsed.searchParams.get('url')).toBe(url);
    expect(proxiedImagePath(key, 'javascript:alert(1)')).toBeNull();
  });

  it('keeps own uploads direct and proxies other images', () => {
    const own = '/media/files/0b7e3f7e-8f0c-4c51-9d0e-0d7c3f0a1b2c/logo.png';
    const remote = (u: unknown) => proxiedImagePath(key, u);
    expect(pageImage(own, [], remote)).toBe(own);
    expect(pageImage(`https://app.example${own}`, ['https://app.example'], remote)).toBe(own);
    expect(pageImage(url, [], remote)).toMatch(/^\/public\/images\//);
    expect(pageImage(url, [], undefined)).toBeNull();
    expect(pageImage('data:image/png;base64,AA', [], remote)).toBeNull();
  });
});

describe('ImageCache', () => {
  const image = (bytes: number) => ({ type: 'image/png', body: Buffer.alloc(bytes) });

  it('keeps entries until their TTL', () => {
    let now = 1000;
    const cache = new ImageCache({ maxEntries: 10, maxBytes: 1000, ttlMs: 50 }, () => now);
    cache.set('a', image(10));
    expect(cache.get('a')?.body.length).toBe(10);
    now += 49;
    expect(cache.get('a')).not.toBeNull();
    now += 1;
    expect(cache.get('a')).toBeNull();
    expect(cache.size).toBe(0);
    expect(cache.totalBytes).toBe(0);
  });

  it('drops the least recently used beyond its entry count', () => {
    const cache = new ImageCache({ maxEntries: 2, maxBytes: 1000, ttlMs: 1000 });
    cache.set('a', image(1));
    cache.set('b', image(1));
    cache.get('a');
    cache.set('c', image(1));
    expect(cache.get('b')).toBeNull();
    expect(cache.get('a')).not.toBeNull();
    expect(cache.get('c')).not.toBeNull();
    expect(cache.size).toBe(2);
  });

  it('stays within its total bytes and skips images larger than it', () => {
    const cache = new ImageCache({ maxEntries: 100, maxBytes: 100, ttlMs: 1000 });
    cache.set('a', image(40));
    cache.set('b', image(40));
    cache.set('c', image(40));
    expect(cache.totalBytes).toBe(80);
    expect(cache.get('a')).toBeNull();
    cache.set('huge', image(101));
    expect(cache.get('huge')).toBeNull();
    expect(cache.totalBytes).toBe(80);
    cache.set('b', image(10));
    expect(cache.totalBytes).toBe(50);
  });
});

describe('RecentFailures', () => {
  it('remembers a failure until its TTL, and only so many', () => {
    let now = 1000;
    const failures = new RecentFailures<string>({ maxEntries: 2, ttlMs: 50 }, () => now);
    failures.set('a', 'gone');
    expect(failures.get('a')).toBe('gone');
    now += 50;
    expect(failures.get('a')).toBeNull();
    failures.set('a', 'gone');
    failures.set('b', 'slow');
    failures.set('c', 'huge');
    expect([failures.get('a'), failures.get('b'), failures.get('c')]).toEqual([
      null,
      'slow',
      'huge',
    ]);
  });
});
