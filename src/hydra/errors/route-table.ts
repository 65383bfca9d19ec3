import type { INestApplication } from '@nestjs/common';
import { routeLayers, type RouterLayer } from '../../common/route-index';

type Layer = RouterLayer & {
  route?: { path: string | string[]; methods: Record<string, boolean> };
};

/** The registered routes, read from Express once the app is up; answers 405 and enumerates routes for tests. */
export class RouteTable {
  private routes: Array<{ method: string; path: string; match: (p: string) => boolean }> | null =
    null;

  constructor(private readonly app: INestApplication) {}

  all(): Array<{ method: string; path: string }> {
    return this.load().map(({ method, path }) => ({ method, path }));
  }

  allowedMethods(path: string): string[] {
    return [
      ...new Set(
        this.load()
          .filter((r) => r.match(path))
          .map((r) => r.method),
      ),
    ];
  }

  private load() {
    if (this.routes) return this.routes;
    const instance = this.app.getHttpAdapter().getInstance() as {
      router?: { stack: Layer[] };
      _router?: { stack: Layer[] };
    };
    const stack = (instance.router ?? instance._router)?.stack ?? [];
    const routes: Array<{ method: string; path: string; match: (p: string) => boolean }> = [];
    for (const layer of routeLayers(stack) as Layer[]) {
      if (!layer.route) continue;
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        const pattern = path
          .split('/')
          .map((seg) =>
            seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/');
        const re = new RegExp(`^${pattern}/?$`);
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') continue;
          routes.push({ method: method.toUpperCase(), path, match: (p) => re.test(p) });
        }
      }
    }
    this.routes = routes;
    return routes;
  }
}
