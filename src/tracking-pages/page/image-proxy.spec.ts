import { createHmac } from 'node:crypto';
import {
  FetchSlots,
  ImageCache,
  RecentFailures,
  UNSCOPED_LINKS,
  imageSignature,
  proxiableUrl,
  proxiedImagePath,
  signedFor,
  workspaceTag,
} from './image-proxy';
import { pageImage } from './page-brand';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const url = 'https://cdn.shop.example/p/1.png?v=2';
const workspace = '0b7e3f7e-8f0c-4c51-9d0e-0d7c3f0a1b2c';
const otherWorkspace = '5d1c0e2a-3b4f-4a6d-8e9f-1a2b3c4d5e6f';

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

  it('signs the URL for a workspace and verifies only its own signature', () => {
    const signature = imageSignature(key, workspace, url);
    const tag = workspaceTag(key, workspace);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/);
    expect(signature.startsWith(`${tag}.`)).toBe(true);
    // The tag names the workspace for the bounds without showing its id.
    expect(tag).not.toContain(workspace.slice(0, 8));
    expect(workspaceTag(key, otherWorkspace)).not.toBe(tag);
    expect(signedFor(key, url, signature)).toBe(tag);
    expect(signedFor(otherKey, url, signature)).toBeNull();
    expect(signedFor(key, `${url}&x=1`, signature)).toBeNull();
    // Another workspace's tag on this MAC (to spend that workspace's bound) is refused.
    const [, macPart] = signature.split('.');
    expect(signedFor(key, url, `${workspaceTag(key, otherWorkspace)}.${macPart}`)).toBeNull();
    const tampered = `${tag}.${(macPart[0] === 'A' ? 'B' : 'A') + macPart.slice(1)}`;
    expect(signedFor(key, url, tampered)).toBeNull();
    expect(signedFor(key, url, '')).toBeNull();
    expect(signedFor(key, url, undefined)).toBeNull();
    expect(signedFor(key, url, `${signature}x`)).toBeNull();
  });

  it('keeps links signed before workspaces were named working, all under one bound key', () => {
    const former = createHmac('sha256', key).update(url, 'utf8').digest('base64url');
    expect(signedFor(key, url, former)).toBe(UNSCOPED_LINKS);
    expect(signedFor(otherKey, url, former)).toBeNull();
    expect(signedFor(key, `${url}&x=1`, former)).toBeNull();
  });

  it('makes the page path with the encoded URL', () => {
    const path = proxiedImagePath(key, workspace, url)!;
    expect(path).toBe(
      `/public/images/${imageSignature(key, workspace, url)}?url=${encodeURIComponent(url)}`,
    );
    const parsed = new URL(path, 'http://app.example');
    expect(parsed.searchParams.get('url')).toBe(url);
    expect(proxiedImagePath(key, workspace, 'javascript:alert(1)')).toBeNull();
  });

  it('keeps own uploads direct and proxies other images', () => {
    const own = '/media/files/0b7e3f7e-8f0c-4c51-9d0e-0d7c3f0a1b2c/logo.png';
    const remote = (u: unknown) => proxiedImagePath(key, workspace, u);
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

describe('FetchSlots', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('grants up to the total and per key, then lets waiters in as slots free up', async () => {
    const slots = new FetchSlots({ total: 3, perKey: 2, maxWaiting: 10 });
    const a1 = (await slots.acquire('a', 0))!;
    const a2 = (await slots.acquire('a', 0))!;
    expect(await slots.acquire('a', 0)).toBeNull();
    const b1 = (await slots.acquire('b', 0))!;
    expect(slots.active).toBe(3);
    expect(await slots.acquire('c', 0)).toBeNull();
    // A waiter of a full key does not hold up one whose key has room.
    const granted: string[] = [];
    void slots.acquire('a', 1000).then((r) => r && granted.push('a'));
    void slots.acquire('c', 1000).then((r) => r && granted.push('c'));
    b1();
    await settle();
    expect(granted).toEqual(['c']);
    a1();
    await settle();
    expect(granted).toEqual(['c', 'a']);
    expect(slots.active).toBe(3);
    a2();
    a2(); // Releasing twice frees one slot only.
    expect(slots.active).toBe(2);
  });

  it('gives up after the wait, and at once when too many wait', async () => {
    jest.useFakeTimers();
    try {
      const slots = new FetchSlots({ total: 1, perKey: 1, maxWaiting: 1 });
      await slots.acquire('a', 0);
      const waiting = slots.acquire('a', 500);
      expect(await slots.acquire('a', 500)).toBeNull();
      jest.advanceTimersByTime(500);
      expect(await waiting).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });
});
