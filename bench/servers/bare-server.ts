/**
 * The reference server of the list benchmarks: node:http + pg, no framework.
 * For each request it runs the same SQL as the API: the bearer-token look-up
 * (the PrincipalLoader's statements, on this pool) and the count and page
 * statements the Hydra layer planned for that URL (read from PLANS_FILE).
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { Pool } from 'pg';
import { PrincipalLoader } from '../../src/access/principal-loader';
import { Clock } from '../../src/common/clock';
import { PrincipalStore } from '../../src/auth/principal-store';
import { preparedQuery } from '../../src/database/query';

interface Plan {
  url: string;
  countSql: string;
  countParams: unknown[];
  pageSql: string;
  pageParams: unknown[];
}

const plans = new Map<string, Plan>(
  (JSON.parse(readFileSync(process.env.PLANS_FILE!, 'utf8')) as Plan[]).map((p) => [p.url, p]),
);
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const principals = new PrincipalLoader(
  new PrincipalStore({ driver: { master: pool } } as never, new Clock()),
);

const server = http.createServer(async (req, res) => {
  try {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const principal = token ? await principals.fromToken(token) : null;
    if (!principal) {
      res.writeHead(401).end();
      return;
    }
    const plan = plans.get(req.url ?? '');
    if (!plan) {
      res.writeHead(404).end();
      return;
    }
    const [count, page] = await Promise.all([
      preparedQuery(pool, plan.countSql, plan.countParams),
      preparedQuery(pool, plan.pageSql, plan.pageParams),
    ]);
    res.writeHead(200, { 'Content-Type': 'application/ld+json; charset=utf-8' });
    res.end(JSON.stringify({ 'hydra:member': page.rows, 'hydra:totalItems': count.rows[0].n }));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => pool.end().then(() => process.exit(0)));
  server.closeIdleConnections();
});
