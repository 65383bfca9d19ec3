import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

/**
 * A closed-loop load: `connections` keep-alive clients each send the next
 * request when the previous one completes, for `seconds`. Latencies in ms.
 * Only loopback targets (this machine).
 */
export async function runLoad(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  /** A POST with a fresh body per request; 201 counts as success. */
  post?: { body: () => string },
): Promise<LoadResult> {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname))
    throw new Error('benchmarks only target loopback');
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          headers: post ? { ...headers, 'Content-Type': 'application/ld+json' } : headers,
          agent,
          method: post ? 'POST' : 'GET',
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== (post ? 201 : 200)) errors++;
            latencies.push(performance.now() - start);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(post?.body());
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50: pct(0.5),
    p99: pct(0.99),
  };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
