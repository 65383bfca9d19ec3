import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server forwarding each request to the server registered for its path prefix
 * (unknown prefixes: 404): one API root for several fakes of a platform whose stores are paths
 * under a fixed root (BigCommerce's `/stores/{hash}`), so each test can have a store of its own.
 */
export interface PathRouter {
  readonly baseUrl: string;
  route(prefix: string, targetBaseUrl: string): void;
  close(): Promise<void>;
}

export async function startPathRouter(): Promise<PathRouter> {
  const routes = new Map<string, URL>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const prefix = [...routes.keys()]
      .filter((p) => path === p || path.startsWith(`${p}/`))
      .sort((a, b) => b.length - a.length)[0];
    if (!prefix) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"error":"no such store"}');
      return;
    }
    const target = routes.get(prefix)!;
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    route: (prefix, targetBaseUrl) => routes.set(prefix, new URL(targetBaseUrl)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
