import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoreWebhookDelivery } from '../../src/store-sync/store-platform';

export interface Receiver {
  url: string;
  received: StoreWebhookDelivery[];
  close(): Promise<void>;
}

/** Our webhook receiver's stand-in for adapter specs: records each POST and answers 200. */
export async function startReceiver(path = '/public/store_webhooks/test/wf-1'): Promise<Receiver> {
  const received: StoreWebhookDelivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
        ),
        rawBody: Buffer.concat(chunks),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
