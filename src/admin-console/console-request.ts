import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What a request under /admin asks of the console's static bundle (pure). The console is a
 * single page with a hash router: `/admin/` is its page, `/admin/assets/<hashed name>` its
 * files; nothing else exists.
 */
export type ConsoleRequest =
  | { kind: 'redirect'; location: string }
  | { kind: 'page' }
  | { kind: 'asset'; name: string }
  | { kind: 'not-found' };

/** Vite's hashed file names: letters, digits, `-`, `_` and dots, never a path. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export function consoleRequest(url: string): ConsoleRequest {
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  const query = question < 0 ? '' : url.slice(question);
  // The registered redirect URI is `<origin>/admin/`: the page lives at that address only.
  if (path === '/admin') return { kind: 'redirect', location: `/admin/${query}` };
  if (path === '/admin/' || path === '/admin/index.html') return { kind: 'page' };
  const asset = /^\/admin\/assets\/([^/]+)$/.exec(path)?.[1];
  if (asset && ASSET_NAME.test(asset) && !asset.includes('..'))
    return { kind: 'asset', name: asset };
  return { kind: 'not-found' };
}

/**
 * The console's Content-Security-Policy: everything from this origin only (no CDN, no web
 * fonts, no third-party request); the style elements MUI writes at run time carry the
 * page's nonce (`nonce`: base64, fresh for every page answered).
 */
export function consoleCsp(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The placeholder of admin/index.html that each answer replaces with its nonce. */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Content types of the files Vite emits. */
export const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The console's directory (`admin/` of the repository), found from this file whether it runs
 * compiled (dist/src/admin-console) or from source (src/admin-console).
 */
export function consoleDirectory(
  from: string,
  exists: (path: string) => boolean = existsSync,
): string {
  let dir = from;
  for (;;) {
    if (exists(join(dir, 'admin', 'package.json'))) return join(dir, 'admin');
    const parent = dirname(dir);
    if (parent === dir) return join(from, 'admin');
    dir = parent;
  }
}
