import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../config/app-config';
import { WebhookRefusedError, WebhookSender } from './webhook-sender';

function sender(allowed: string[] = [], timeoutMs = 2000): WebhookSender {
  return new WebhookSender({
    webhookAllowedHosts: allowed,
    webhookTimeoutMs: timeoutMs,
  } as unknown as AppConfig);
}

describe('WebhookSender', () => {
  it('refuses bad schemes, embedded credentials and literal private targets before any lookup', () => {
    const s = sender();
    expect(s.staticProblem('ftp://example.com/')).toMatch(/http or https/);
    expect(s.staticProblem('not a url')).toMatch(/not a valid URL/);
    expect(s.staticProblem('https://user:pw@example.com/')).toMatch(/credentials/);
    for (const url of [
      'http://10.1.2.3/',
      'http://[fe80::1]/',
      'http://localhost:8080/',
      'http://0x7f.1/',
    ]) {
      expect(s.staticProblem(url)).toMatch(/private/);
    }
    expect(s.staticProblem('https://hooks.example.com/x')).toBeNull();
    expect(sender(['127.0.0.1']).staticProblem('http://127.0.0.1:9/')).toBeNull();
  });

  it('refuses host names that resolve to private addresses, and connects to the checked address', async () => {
    const s = sender();
    // `localhost` style names are refused statically; others are judged by their DNS answer.
    await expect(s.resolveTarget(new URL('http://127.0.0.1/'))).rejects.toBeInstanceOf(
      WebhookRefusedError,
    );
    const allowed = sender(['localhost']);
    await expect(allowed.resolveTarget(new URL('http://localhost/'))).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
  });

  it('judges host names by every address they resolve to', async () => {
    class Resolving extends WebhookSender {
      constructor(
        private readonly answers: string[],
        allowed: string[] = [],
      ) {
        super({ webhookAllowedHosts: allowed, webhookTimeoutMs: 1000 } as unknown as AppConfig);
      }
      protected override async lookupHost() {
        return this.answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      }
    }
    const rebound = new Resolving(['93.184.216.34', '10.0.0.7']);
    // Refused without saying which address the name has (the run's log is the tenant's).
    await expect(rebound.resolveTarget(new URL('https://hooks.example.com/'))).rejects.toThrow(
      new WebhookRefusedError('refused: not a public address'),
    );
    await expect(
      new Resolving(['fd00::1']).resolveTarget(new URL('https://v6.example.com/')),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
    await expect(
      new Resolving(['93.184.216.34']).resolveTarget(new URL('https://hooks.example.com/')),
    ).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(
      new Resolving(['10.0.0.7'], ['hooks.internal']).resolveTarget(
        new URL('http://hooks.internal/'),
      ),
    ).resolves.toEqual({ address: '10.0.0.7', family: 4 });
    await expect(
      new Resolving([]).resolveTarget(new URL('https://empty.example.com/')),
    ).rejects.toThrow(/no address/);
  });

  describe('against a local server (allowed by the allow-list)', () => {
    let server: Server;
    let port: number;
    const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
          if (req.url === '/slow') return; // never answers
          if (req.url === '/redirect') {
            res.writeHead(302, { Location: 'http://10.0.0.1/' }).end();
            return;
          }
          res.writeHead(201, { 'Content-Type': 'text/plain' }).end('created');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('POSTs the body with its headers and reads the answer', async () => {
      const res = await sender(['127.0.0.1']).post(`http://127.0.0.1:${port}/ok`, '{"a":1}', {
        'X-Event-Id': 'e1',
      });
      expect(res).toMatchObject({ status: 201, body: 'created' });
      const last = seen[seen.length - 1];
      expect(last.body).toBe('{"a":1}');
      expect(last.headers['x-event-id']).toBe('e1');
      expect(last.headers['content-type']).toBe('application/json');
    });

    it('does not follow redirects and gives up after the timeout', async () => {
      const s = sender(['127.0.0.1'], 300);
      await expect(s.post(`http://127.0.0.1:${port}/redirect`, '{}', {})).resolves.toMatchObject({
        status: 302,
      });
      await expect(s.post(`http://127.0.0.1:${port}/slow`, '{}', {})).rejects.toThrow(/timed out/);
    });

    it('is refused without the allow-list', async () => {
      await expect(sender().post(`http://127.0.0.1:${port}/ok`, '{}', {})).rejects.toBeInstanceOf(
        WebhookRefusedError,
      );
    });
  });
});
