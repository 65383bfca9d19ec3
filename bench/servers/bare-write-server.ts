/**
 * The reference server of the item and create benchmarks: node:http + pg, no framework.
 * - GET <item url>: the bearer-token look-up (the PrincipalLoader's statement) and the item
 *   statement the Hydra layer plans for that URL (ITEM_PLAN_FILE), as in the API; it answers
 *   the record's JSON text that statement renders.
 * - POST /shipments: the token look-up and the rows a created shipment ends up with, written
 *   the shortest way: one shipment row with its tracking fields, its six checkpoints and its two
 *   outbox events (`shipment.created` with the row, `shipment.status_changed`), in one
 *   transaction; it answers the row as JSON.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { Pool } from 'pg';
import { PrincipalLoader } from '../../src/access/principal-loader';
import { Clock } from '../../src/common/clock';
import { PrincipalStore } from '../../src/auth/principal-store';
import { preparedQuery } from '../../src/database/query';

const item = JSON.parse(readFileSync(process.env.ITEM_PLAN_FILE!, 'utf8')) as {
  url: string;
  sql: string;
  params: unknown[];
};
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const principals = new PrincipalLoader(
  new PrincipalStore({ driver: { master: pool } } as never, new Clock()),
);

// Every column the API's create fills for a sandbox number (tracking fields, facts, schedule).
const INSERT_SHIPMENT = `INSERT INTO shipment (workspace_id, tracking_number, email, origin_carrier, tracking_status,
   days_in_transit, days_in_idle, shipped_at, last_status_update, expected_delivery_date,
   origin_country, origin_country_iso2, destination_country, destination_country_iso2, destination_carrier,
   next_check_at, tracking_attempts, tracking_facts, last_tracked_at)
 VALUES ($1, $2, $3, 'tm-test', 'in_transit', 1, 0, now() - interval '1 day', now() - interval '1 day',
   now() + interval '3 days', 'China', 'CN', 'Germany', 'DE', 'tm-test', now() + interval '3 hours', 0,
   '{"originCountryIso2": "CN", "destinationCountryIso2": "DE", "destinationCarrier": "tm-test"}', now())
 RETURNING *`;
const INSERT_CHECKPOINTS = `INSERT INTO tracking_checkpoint (shipment_id, workspace_id, external_id, checkpoint_date, status, info, location, country_iso2, carrier, rel, source)
 SELECT $1, $2, 'cp-' || g, now() - make_interval(hours => 10 * (6 - g)), (ARRAY['pre_transit','pre_transit','in_transit','in_transit','in_transit','in_transit'])[g],
        'Checkpoint ' || g, 'Shenzhen', 'CN', 'tm-test', 'origin', 'provider'
   FROM generate_series(1, 6) g`;
const INSERT_EVENTS = `INSERT INTO outbox_event (workspace_id, type, aggregate_type, aggregate_id, payload)
 VALUES ($1, 'shipment.status_changed', 'shipment', $2, $3), ($1, 'shipment.created', 'shipment', $2, $4)`;

async function create(
  token: string,
  body: { workspace: string; trackingNumber: string; email: string },
) {
  const principal = await principals.fromToken(token);
  if (!principal) return { status: 401, body: '' };
  const workspaceId = body.workspace.split('/').pop()!;
  if (!principal.workspaceIds.includes(workspaceId)) return { status: 422, body: '' };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const {
      rows: [row],
    } = await preparedQuery(client, INSERT_SHIPMENT, [
      workspaceId,
      body.trackingNumber,
      body.email,
    ]);
    await preparedQuery(client, INSERT_CHECKPOINTS, [row.id, workspaceId]);
    const json = JSON.stringify(row);
    await preparedQuery(client, INSERT_EVENTS, [
      workspaceId,
      row.id,
      JSON.stringify({ shipment: `/shipments/${row.id}`, trackingStatus: row.tracking_status }),
      json,
    ]);
    await client.query('COMMIT');
    return { status: 201, body: json };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const server = http.createServer(async (req, res) => {
  try {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) {
      res.writeHead(401).end();
      return;
    }
    if (req.method === 'POST' && req.url === '/shipments') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const out = await create(token, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(out.status, { 'Content-Type': 'application/ld+json; charset=utf-8' });
      res.end(out.body);
      return;
    }
    const principal = await principals.fromToken(token);
    if (!principal) {
      res.writeHead(401).end();
      return;
    }
    if (req.url !== item.url) {
      res.writeHead(404).end();
      return;
    }
    const { rows } = await preparedQuery(pool, item.sql, item.params);
    res.writeHead(200, { 'Content-Type': 'application/ld+json; charset=utf-8' });
    res.end(typeof rows[0].j === 'string' ? rows[0].j : JSON.stringify(rows[0]));
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
