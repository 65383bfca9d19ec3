import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundRequestError, OutboundSession, outboundRequest } from './outbound-request';

describe('outboundRequest', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method: string; url: string; body: string; host: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          body: Buffer.concat(chunks).toString(),
          host: req.headers.host ?? '',
        });
        if (req.url === '/big') return res.writeHead(200).end('x'.repeat(2000));
        if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end('late'), 300);
        if (req.url === '/moved') return res.writeHead(301, { Location: 'http://10.0.0.1/' }).end();
        res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const allowed = { allowedHosts: ['127.0.0.1'] };
  const options = { method: 'POST' as const, body: '{"a":1}', maxBytes: 1000, timeoutMs: 2000 };

  it('sends any method with its body to an allowed host and answers status, headers and body', async () => {
    const answer = await outboundRequest(new URL(`${base}/orders`), {
      ...options,
      policy: allowed,
    });
    expect(answer.status).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body.toString()).toBe('{"ok":true}');
    expect(seen.at(-1)).toEqual(
      expect.objectContaining({ method: 'POST', url: '/orders', body: '{"a":1}' }),
    );
  });

  it('refuses a private address unless allow-listed, before connecting', async () => {
    const before = seen.length;
    const error = await outboundRequest(new URL(`${base}/orders`), {
      ...options,
      policy: { allowedHosts: [] },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect((error as OutboundRequestError).reason).toBe('refused');
    expect(seen.length).toBe(before);
  });

  it('pins the connection to the checked address whatever the host name', async () => {
    // "shop.example" resolves (here) to loopback, which the operator allowed.
    const answer = await outboundRequest(
      new URL(`${base.replace('127.0.0.1', 'shop.example')}/pinned`),
      {
        ...options,
        policy: {
          allowedHosts: ['shop.example'],
          lookup: async () => [{ address: '127.0.0.1', family: 4 }],
        },
      },
    );
    expect(answer.status).toBe(201);
    expect(seen.at(-1)?.host).toMatch(/^shop\.example:/);
  });

  it('refuses a host that resolves to a private address', async () => {
    const error = await outboundRequest(new URL('https://shop.example/x'), {
      ...options,
      policy: { allowedHosts: [], lookup: async () => [{ address: '10.1.2.3', family: 4 }] },
    }).catch((e: unknown) => e);
    expect((error as OutboundRequestError).reason).toBe('refused');
  });

  it('returns a redirect as an answer without following it', async () => {
    const answer = await outboundRequest(new URL(`${base}/moved`), {
      ...options,
      method: 'GET',
      body: undefined,
      policy: allowed,
    });
    expect(answer.status).toBe(301);
  });

  it('fails too large and too slow answers by their reason', async () => {
    const big = await outboundRequest(new URL(`${base}/big`), {
      ...options,
      policy: allowed,
    }).catch((e: unknown) => e);
    expect((big as OutboundRequestError).reason).toBe('too_large');
    const slow = await outboundRequest(new URL(`${base}/slow`), {
      ...options,
      timeoutMs: 100,
      policy: allowed,
    }).catch((e: unknown) => e);
    expect((slow as OutboundRequestError).reason).toBe('timeout');
  });

  it('checks a host once per session', async () => {
    let lookups = 0;
    const session = new OutboundSession({
      allowedHosts: ['shop.example'],
      lookup: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    try {
      const url = new URL(`${base.replace('127.0.0.1', 'shop.example')}/again`);
      for (let i = 0; i < 3; i++) expect((await session.request(url, options)).status).toBe(201);
      expect(lookups).toBe(1);
    } finally {
      session.close();
    }
  });
});
