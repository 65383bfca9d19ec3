import { createServer } from 'net';
import { findFreePort } from './free-port';

describe('findFreePort', () => {
  it('returns a port that can be bound right away', async () => {
    const port = await findFreePort();
    expect(port).toBeGreaterThan(1023);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('returns different ports on successive calls while the first is in use', async () => {
    const first = await findFreePort();
    const server = createServer().listen(first, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    expect(await findFreePort()).not.toBe(first);
    await new Promise((resolve) => server.close(resolve));
  });
});
