import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import {
  ASSET_TYPES,
  NONCE_PLACEHOLDER,
  consoleCsp,
  consoleDirectory,
  consoleRequest,
} from './console-request';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The Express handler mounted at /admin by configureApp (`app.use`, before Nest's routes): an
 * Express mount is no route, so the route walks and the route index do not see the console.
 */
export function adminConsole(dist = join(consoleDirectory(__dirname), 'dist')) {
  const server = new AdminConsole(dist);
  return (req: Request, res: Response, next: NextFunction): void => {
    void server.use(req, res, next);
  };
}

/**
 * Serves the merchant console's static bundle (`admin/dist`, built by `npm run admin:build`)
 * at /admin: the page with a fresh CSP nonce and never cached, the hashed assets cached for a
 * year. Without a bundle, a page says how to build it. Other methods than GET and HEAD go on
 * to Nest (a 404 in the API's format).
 */
class AdminConsole {
  constructor(private readonly dist: string) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const wanted = consoleRequest(req.originalUrl);
    try {
      switch (wanted.kind) {
        case 'redirect':
          res.redirect(301, wanted.location);
          return;
        case 'page':
          return await this.page(res);
        case 'asset':
          return await this.asset(wanted.name, req, res);
        default:
          return this.text(res, 404, 'Not Found', 'There is no such page in the console.');
      }
    } catch (error) {
      next(error);
    }
  }

  private async page(res: Response): Promise<void> {
    const html = await readFile(join(this.dist, 'index.html'), 'utf8').catch(() => null);
    if (html === null)
      return this.text(
        res,
        503,
        'The console is not built',
        'Build it with `npm run admin:build` (it installs the console’s packages the first time), then reload this page.',
      );
    const nonce = randomBytes(16).toString('base64');
    res.status(200);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', consoleCsp(nonce));
    res.send(html.replaceAll(NONCE_PLACEHOLDER, nonce));
  }

  private async asset(name: string, req: Request, res: Response): Promise<void> {
    const type = ASSET_TYPES[extname(name)];
    const path = join(this.dist, 'assets', name);
    const found = type ? await stat(path).catch(() => null) : null;
    if (!found?.isFile()) return this.text(res, 404, 'Not Found', 'There is no such file.');
    res.status(200);
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Content-Length', String(found.size));
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.end(await readFile(path));
  }

  private text(res: Response, status: number, title: string, message: string): void {
    res.status(status);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', consoleCsp('none'));
    res.send(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
        `<body><main><h1>${title}</h1><p>${message.replace(/`([^`]+)`/g, '<code>$1</code>')}</p></main></body></html>`,
    );
  }
}
