import { consoleCsp, consoleDirectory, consoleRequest } from './console-request';

describe('console requests', () => {
  it('send /admin to /admin/ (the registered redirect URI), query kept', () => {
    expect(consoleRequest('/admin')).toEqual({ kind: 'redirect', location: '/admin/' });
    expect(consoleRequest('/admin?code=a&state=b')).toEqual({
      kind: 'redirect',
      location: '/admin/?code=a&state=b',
    });
  });

  it('serve the page at /admin/ with or without a query', () => {
    expect(consoleRequest('/admin/')).toEqual({ kind: 'page' });
    expect(consoleRequest('/admin/?code=x')).toEqual({ kind: 'page' });
    expect(consoleRequest('/admin/index.html')).toEqual({ kind: 'page' });
  });

  it('serve hashed assets by name only', () => {
    expect(consoleRequest('/admin/assets/index-uw4heKeW.js')).toEqual({
      kind: 'asset',
      name: 'index-uw4heKeW.js',
    });
    for (const url of [
      '/admin/assets/../index.html',
      '/admin/assets/..',
      '/admin/assets/.inputs-hash',
      '/admin/assets/a/b.js',
      '/admin/assets/%2e%2e%2fsecret',
      '/admin/.inputs-hash',
      '/admin/shipments',
      '/administrator',
    ])
      expect([url, consoleRequest(url).kind]).toEqual([url, 'not-found']);
  });
});

describe('the console CSP', () => {
  it('allows this origin only, styles with the nonce, no inline script', () => {
    const csp = consoleCsp('abc');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'nonce-abc'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)|https?:|\*/);
  });
});

describe('the console directory', () => {
  it('is admin/ beside the nearest folder holding admin/package.json', () => {
    const exists = (p: string) => p === '/repo/admin/package.json';
    expect(consoleDirectory('/repo/dist/src/admin-console', exists)).toBe('/repo/admin');
    expect(consoleDirectory('/repo/src/admin-console', exists)).toBe('/repo/admin');
    expect(consoleDirectory('/elsewhere/x', exists)).toBe('/elsewhere/x/admin');
  });
});
