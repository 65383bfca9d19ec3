import express from 'express';
import type { AddressInfo } from 'net';
import { indexRoutes, literalFirstSegment, routeLayers, type RouterLayer } from './route-index';

describe('literalFirstSegment', () => {
  it.each([
    ['/shipments', 'shipments'],
    ['/Shipments/:id', 'shipments'],
    ['/', ''],
    ['/workspaces/:id/shipments', 'workspaces'],
    ['/:id', null],
    ['/*splat', null],
    ['/docs{/*rest}', null],
    [['/a', '/b'], null],
    [/^\/x/, null],
  ])('%p -> %p', (path, expected) => expect(literalFirstSegment(path)).toBe(expected));
});

describe('indexRoutes on a real Express app', () => {
  /** An app whose routes answer with their own name, to see which one matched. */
  function build() {
    const app = express();
    app.use((req, res, next) => (res.setHeader('x-seen', 'mw'), next()));
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    for (const name of names) app.get(`/${name}`, (_req, res) => res.send(`get ${name}`));
    app.get('/a/:id', (req, res) => res.send(`a ${req.params.id}`));
    app.put('/a/:id', (req, res) => res.send(`put a ${req.params.id}`));
    app.get('/b/:id', (req, res, next) => (req.params.id === 'skip' ? next() : res.send('b id')));
    app.get('/b/skip', (_req, res) => res.send('b skip (second)'));
    app.get('/c/boom', () => {
      throw new Error('boom');
    });
    app.get('/:anything', (req, res) => res.send(`param ${req.params.anything}`));
    app.use((_req, res) => res.status(404).send('not found'));
    app.use((err: Error, _req: express.Request, res: express.Response, _next: unknown) =>
      res.status(500).send(`error ${err.message}`),
    );
    return app;
  }

  async function responses(app: express.Express) {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const call = async (method: string, path: string) => {
      const res = await fetch(base + path, { method });
      return `${res.status} ${res.headers.get('allow') ?? ''} ${method === 'HEAD' ? res.headers.get('content-length') : await res.text()}`;
    };
    try {
      const out: string[] = [];
      for (const [method, path] of [
        ['GET', '/a'],
        ['GET', '/A'],
        ['GET', '/j/'],
        ['GET', '/a/42'],
        ['PUT', '/a/7'],
        ['HEAD', '/a/42'],
        ['OPTIONS', '/a/1'],
        ['DELETE', '/a/1'],
        ['GET', '/b/1'],
        ['GET', '/b/skip'],
        ['GET', '/c/boom'],
        ['GET', '/zzz'],
        ['GET', '/zzz/deeper'],
        ['GET', '/a/1/2'],
      ])
        out.push(`${method} ${path} -> ${await call(method, path)}`);
      return out;
    } finally {
      server.close();
    }
  }

  it('answers every request exactly as the unindexed app does', async () => {
    const plain = build();
    const indexed = build();
    const stack = (indexed as unknown as { router: { stack: RouterLayer[] } }).router.stack;
    const routesBefore = routeLayers(stack).length;
    expect(indexRoutes(stack, 8)).toBe(15);
    expect(stack.filter((l) => l.route).length).toBe(1); // only the parameter-first route
    expect(routeLayers(stack).length).toBe(routesBefore);
    const expected = await responses(plain);
    expect(expected).toContain('GET /b/skip -> 200  b skip (second)');
    expect(expected).toContain('GET /zzz -> 200  param zzz');
    expect(await responses(indexed)).toEqual(expected);
  });

  it('leaves short runs to Express', () => {
    const app = build();
    const stack = (app as unknown as { router: { stack: RouterLayer[] } }).router.stack;
    const before = [...stack];
    expect(indexRoutes(stack, 100)).toBe(0);
    expect(stack).toEqual(before);
  });
});
