import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake provider received. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body (or form fields for urlencoded bodies), undefined when empty. */
  body: unknown;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Drop the connection instead of answering (a server that dies mid-request). */
  destroy?: boolean;
}

/** How a store that is down fails: refused connections, 503 answers or dropped connections. */
export type FakeOutage = 'refused' | 'http503' | 'reset' | false;

export type FakeHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeProviderServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (give it as the credentials' `baseUrl`). */
  readonly baseUrl: string;
  readonly requests: FakeRequest[];
  /** Route `METHOD /path` (path without query) to a handler; replaces an earlier one. */
  on(method: string, path: string, handler: FakeHandler): void;
  /**
   * Route `METHOD /prefix...` to a handler, for paths carrying ids (`/trackers/{id}`); exact
   * routes win, then the longest matching prefix.
   */
  onPrefix(method: string, prefix: string, handler: FakeHandler): void;
  /**
   * Answers to use before any route, in order, for the next requests (e.g. a 429 with
   * Retry-After, a 500, a 401): protocol failures a test wants once.
   */
  failNext(...answers: FakeResponse[]): void;
  /** The same for the next requests of one method whose path starts with `prefix` only. */
  failNextOn(method: string, prefix: string, ...answers: FakeResponse[]): void;
  /** Requests whose method and path match. */
  calls(method: string, path: string): FakeRequest[];
  /** Stops listening (connections are refused) until `listenAgain()`, on the same port. */
  stopListening(): Promise<void>;
  readonly listening: boolean;
  listenAgain(): Promise<void>;
  /** Starts (or, with false, ends) an outage; the fake's handlers ask `outageAnswer`. */
  down(mode: FakeOutage): Promise<void>;
  /** What a request gets during an outage (`http503` answers `body503`), or null. */
  outageAnswer(body503: unknown): FakeResponse | null;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) for provider fakes: each fake under
 * test/fakes/ registers the routes of the protocol it speaks (auth, payloads, limits) on it.
 * Unrouted requests answer 404 with a JSON body.
 */
export async function startFakeProviderServer(): Promise<FakeProviderServer> {
  const requests: FakeRequest[] = [];
  const routes = new Map<string, FakeHandler>();
  const prefixes = new Map<string, FakeHandler>();
  const route = (method: string, path: string): FakeHandler | undefined => {
    const exact = routes.get(`${method} ${path}`);
    if (exact) return exact;
    const matching = [...prefixes.keys()]
      .filter((k) => `${method} ${path}`.startsWith(k))
      .sort((a, b) => b.length - a.length);
    return matching.length > 0 ? prefixes.get(matching[0]) : undefined;
  };
  const scripted: FakeResponse[] = [];
  const scriptedOn: Array<{ method: string; prefix: string; answer: FakeResponse }> = [];
  const scriptedFor = (method: string, path: string): FakeResponse | undefined => {
    const index = scriptedOn.findIndex((s) => s.method === method && path.startsWith(s.prefix));
    return index < 0 ? undefined : scriptedOn.splice(index, 1)[0].answer;
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const request: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        body: parseBody(rawBody, req.headers['content-type']),
      };
      requests.push(request);
      const handler = route(request.method, request.path);
      const answer = async (): Promise<FakeResponse> =>
        scripted.shift() ??
        scriptedFor(request.method, request.path) ??
        (handler ? handler(request) : { status: 404, body: { error: 'no such route' } });
      answer().then(
        (out) => write(out),
        (error: unknown) => write({ status: 500, body: { error: String(error) } }),
      );
    });
    const write = (out: FakeResponse): void => {
      if (out.destroy) {
        res.socket?.destroy();
        return;
      }
      const text =
        out.body === undefined
          ? ''
          : typeof out.body === 'string'
            ? out.body
            : JSON.stringify(out.body);
      res.writeHead(out.status, {
        ...(typeof out.body === 'string' ? {} : { 'Content-Type': 'application/json' }),
        ...out.headers,
      });
      res.end(text);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let outage: 'http503' | 'reset' | false = false;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const listenAgain = () =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    on: (method, path, handler) => routes.set(`${method.toUpperCase()} ${path}`, handler),
    onPrefix: (method, prefix, handler) =>
      prefixes.set(`${method.toUpperCase()} ${prefix}`, handler),
    failNext: (...answers) => scripted.push(...answers),
    failNextOn: (method, prefix, ...answers) =>
      scriptedOn.push(
        ...answers.map((answer) => ({ method: method.toUpperCase(), prefix, answer })),
      ),
    calls: (method, path) =>
      requests.filter((r) => r.method === method.toUpperCase() && r.path === path),
    get listening() {
      return server.listening;
    },
    stopListening,
    listenAgain,
    down: async (mode) => {
      if (mode === 'refused') {
        if (server.listening) await stopListening();
        return;
      }
      if (!server.listening) await listenAgain();
      outage = mode;
    },
    outageAnswer: (body503) => {
      if (outage === 'http503') return { status: 503, body: body503 };
      if (outage === 'reset') return { status: 0, destroy: true };
      return null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw === '') return undefined;
  if (/application\/x-www-form-urlencoded/i.test(contentType ?? '')) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
