import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw body, exactly as sent (what the signature covers). */
  body: string;
}

export interface WebhookReceiver {
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** Status codes answered to the next requests, in order; 200 once they run out. */
  answers: number[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (ephemeral port) recording every request it gets. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = answers.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(`{"status":${status}}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
