import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { hashToken } from '../access/principal-loader';
import { dropSecondaryIndexes, recreateIndexes } from './deferred-indexes';

export interface SeedOptions {
  shipments: number;
  orders: number;
  /** Rows per INSERT ... SELECT statement. */
  batch: number;
  /** Statements run at once (default 2). */
  parallel?: number;
  workspaceId?: string;
  /**
   * Drop the secondary indexes of the seeded tables, load, and rebuild them, all in one
   * transaction (other sessions wait on those tables meanwhile). Default: when the load at
   * least doubles the shipment table and is 50,000 shipments or more.
   */
  rebuildIndexes?: boolean;
  /** table: 'order' | 'shipment' | 'shipment_item' | 'index' (indexes rebuilt). */
  onProgress?: (done: { table: string; rows: number; total: number }) => void;
}

export interface SeedResult {
  workspaceId: string;
  userId: string | null;
  token: string | null;
  shipments: number;
  orders: number;
  seconds: number;
}

/**
 * Fills a workspace with realistic data in bulk: orders with two items each,
 * shipments (the first ones linked to orders through shipment items), spread
 * over the last 180 days, with a mix of carriers, statuses and countries.
 * Server-side INSERT ... SELECT generate_series in batches, with the indexes rebuilt after a
 * load that outgrows the table, keeps it fast (1M shipments in well under two minutes) and
 * reports progress.
 */
export async function seedWorkspace(db: DataSource, options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  let userId: string | null = null;
  let token: string | null = null;
  let workspaceId = options.workspaceId;
  if (!workspaceId) {
    const email = `seed-${randomBytes(4).toString('hex')}@example.test`;
    [{ id: userId }] = await db.query(
      `INSERT INTO "user" (email, email_verified) VALUES ($1, true) RETURNING id`,
      [email],
    );
    const [team] = await db.query(`INSERT INTO team (name) VALUES ('Seeded team') RETURNING id`);
    await db.query(`INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'owner')`, [
      team.id,
      userId,
    ]);
    [{ id: workspaceId }] = await db.query(
      `INSERT INTO workspace (team_id, title) VALUES ($1, 'Seeded store') RETURNING id`,
      [team.id],
    );
    token = randomBytes(32).toString('hex');
    await db.query(
      `INSERT INTO access_token (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '30 days')`,
      [hashToken(token), userId],
    );
  }
  const ws = workspaceId!;
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const rows = { ...options, workspaceId: ws, tag };

  if (options.rebuildIndexes ?? (await outgrowsTable(db, options.shipments))) {
    // One transaction: drop the secondary indexes, load, rebuild them (see deferred-indexes).
    const runner = db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const indexes = await dropSecondaryIndexes(runner, SEEDED_TABLES);
      await loadRows((sql, params) => runner.query(sql, params), 1, rows);
      await recreateIndexes(runner, indexes, (built, total) =>
        options.onProgress?.({ table: 'index', rows: built, total }),
      );
      await runner.commitTransaction();
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  } else {
    // Two statements at a time: index maintenance dominates and PostgreSQL does it on one
    // core per statement.
    await loadRows((sql, params) => db.query(sql, params), options.parallel ?? 2, rows);
  }
  await db.query('ANALYZE shipment; ANALYZE "order"; ANALYZE order_item; ANALYZE shipment_item');
  return {
    workspaceId: ws,
    userId,
    token,
    shipments: options.shipments,
    orders: options.orders,
    seconds: (Date.now() - started) / 1000,
  };
}

/** Tables the seeder writes (their secondary indexes are rebuilt after a bulk load). */
const SEEDED_TABLES = ['order', 'order_item', 'shipment', 'shipment_order', 'shipment_item'];
/** Below this, incremental index maintenance is cheaper than rebuilding. */
const REBUILD_MIN_ROWS = 50_000;

/** Whether `rows` new shipments at least double the table (counting at most `rows`). */
async function outgrowsTable(db: DataSource, rows: number): Promise<boolean> {
  if (rows < REBUILD_MIN_ROWS) return false;
  const [{ existing }] = await db.query(
    'SELECT count(*)::int AS existing FROM (SELECT 1 FROM shipment LIMIT $1) s',
    [rows],
  );
  return existing < rows;
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown>;

async function loadRows(
  query: Query,
  parallel: number,
  options: SeedOptions & { workspaceId: string; tag: string },
): Promise<void> {
  const { workspaceId: ws, tag } = options;
  for (let from = 0; from < options.orders; from += options.batch) {
    const to = Math.min(options.orders, from + options.batch);
    await query(
      `WITH o AS (
         INSERT INTO "order" (workspace_id, order_number, order_type, email, subtotal, total, currency, created_at, updated_at,
                              shipping_address_city, shipping_address_country_iso2, shipping_address_postcode, fulfillment_status)
         SELECT $1, 'ORD-${tag}-' || g, 'customer', 'buyer' || g || '@example.test', (g % 500) + 9.99, (g % 500) + 14.99, 'USD',
                now() - ((g % 180) || ' days')::interval - ((g % 1440) || ' minutes')::interval, now(),
                (ARRAY['Berlin','Paris','Austin','Toronto','Leeds'])[1 + g % 5], (ARRAY['DE','FR','US','CA','GB'])[1 + g % 5],
                lpad((g % 99999)::text, 5, '0'), CASE WHEN g <= $4 THEN 'fulfilled' ELSE 'not_fulfilled' END
           FROM generate_series($2::int, $3::int) g
         RETURNING id, workspace_id)
       INSERT INTO order_item (workspace_id, order_id, product_name, product_sku, qty, price)
       SELECT o.workspace_id, o.id, p.name, p.sku, p.n, 9.99 + p.n FROM o CROSS JOIN (VALUES ('T-shirt', 'TS-1', 1), ('Mug', 'MG-2', 2)) p(name, sku, n)`,
      [ws, from + 1, to, options.shipments],
    );
    options.onProgress?.({ table: 'order', rows: to, total: options.orders });
  }

  let shipped = 0;
  await inParallel(Math.ceil(options.shipments / options.batch), parallel, async (b) => {
    const from = b * options.batch;
    const to = Math.min(options.shipments, from + options.batch);
    await query(
      `INSERT INTO shipment (workspace_id, tracking_number, tracking_status, origin_carrier, email, order_numbers,
                             address_city, address_country_iso2, destination_country_iso2, origin_country_iso2,
                             created_at, updated_at, shipped_at, last_status_update, days_in_transit)
       SELECT $1, 'TM' || (ARRAY['102','200','204','418','410','202'])[1 + g % 6] || '${tag}' || g || 'TM',
              (ARRAY['in_transit','delivered','delivery_in_progress','pre_transit','unsuccessful_delivery','available_for_pickup'])[1 + g % 6],
              (ARRAY['tm-test','ups','fedex','usps','dhl'])[1 + g % 5],
              'buyer' || g || '@example.test',
              CASE WHEN g <= $4 THEN ARRAY['ORD-${tag}-' || g] ELSE '{}'::text[] END,
              (ARRAY['Berlin','Paris','Austin','Toronto','Leeds'])[1 + g % 5], (ARRAY['DE','FR','US','CA','GB'])[1 + g % 5],
              (ARRAY['DE','FR','US','CA','GB'])[1 + g % 5], 'CN',
              now() - ((g % 180) || ' days')::interval - ((g % 1440) || ' minutes')::interval, now(),
              CASE WHEN g % 6 = 3 THEN NULL ELSE now() - ((g % 170) || ' days')::interval END,
              now() - ((g % 30) || ' hours')::interval,
              CASE WHEN g % 6 = 3 THEN NULL ELSE g % 20 END
         FROM generate_series($2::int, $3::int) g`,
      [ws, from + 1, to, options.orders],
    );
    shipped += to - from;
    options.onProgress?.({ table: 'shipment', rows: shipped, total: options.shipments });
  });

  if (options.orders === 0 || options.shipments === 0) return;
  // Fresh statistics before joining the new rows (planner estimates otherwise stale).
  await query('ANALYZE shipment; ANALYZE "order"; ANALYZE order_item');
  // Link shipment N to order N: the junction and one shipment item per order item.
  await query(
    `INSERT INTO shipment_order (shipment_id, order_id)
     SELECT s.id, o.id FROM shipment s JOIN "order" o ON o.workspace_id = s.workspace_id AND o.order_number = s.order_numbers[1]
      WHERE s.workspace_id = $1 AND cardinality(s.order_numbers) > 0 AND s.tracking_number LIKE '%${tag}%'`,
    [ws],
  );
  await query(
    `INSERT INTO shipment_item (workspace_id, shipment_id, order_item_id, qty)
     SELECT $1, so.shipment_id, oi.id, oi.qty FROM shipment_order so
       JOIN order_item oi ON oi.order_id = so.order_id
       JOIN shipment s ON s.id = so.shipment_id AND s.workspace_id = $1 AND s.tracking_number LIKE '%${tag}%'`,
    [ws],
  );
  options.onProgress?.({ table: 'shipment_item', rows: options.orders, total: options.orders });
}

/** Runs `task(0..count-1)` with at most `limit` at a time. */
async function inParallel(
  count: number,
  limit: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** Shipment rows of a generated delivery history (src/predictions/history), as table columns. */
export interface HistoryLoad {
  shipments: ReadonlyArray<object>;
  checkpoints: ReadonlyArray<object>;
}

const HISTORY_CHUNK = 5000;

export interface HistoryLoadOptions {
  /**
   * false: the shipments are never due for a tracking refresh (next_check_at NULL), for tests
   * whose app runs the refresher and must not see the history's parcels fetched. Default true.
   */
  due?: boolean;
}

/**
 * Loads a generated delivery history (`historyRows` of src/predictions/history): shipments as
 * the tracking engine would have left them and their checkpoints, set-based, a chunk per
 * statement. The caller then rebuilds the prediction aggregates (PredictionRecompute.rebuild).
 */
export async function loadHistory(
  db: DataSource,
  rows: HistoryLoad,
  options: HistoryLoadOptions = {},
): Promise<void> {
  const nextCheckAt = options.due === false ? 'NULL' : 'next_check_at';
  for (let i = 0; i < rows.shipments.length; i += HISTORY_CHUNK)
    await db.query(
      `INSERT INTO shipment (id, workspace_id, tracking_number, origin_carrier, tracking_status,
              created_at, updated_at, shipped_at, last_status_update, origin_country_iso2,
              destination_country_iso2, address_country_iso2, address_postcode, tracking_facts,
              expected_delivery_date, next_check_at)
       SELECT id, workspace_id, tracking_number, origin_carrier, tracking_status, created_at,
              updated_at, shipped_at, last_status_update, origin_country_iso2,
              destination_country_iso2, address_country_iso2, address_postcode, tracking_facts,
              expected_delivery_date, ${nextCheckAt}
         FROM jsonb_populate_recordset(NULL::shipment, $1::jsonb)`,
      [JSON.stringify(rows.shipments.slice(i, i + HISTORY_CHUNK))],
    );
  for (let i = 0; i < rows.checkpoints.length; i += HISTORY_CHUNK)
    await db.query(
      `INSERT INTO tracking_checkpoint (shipment_id, workspace_id, external_id, checkpoint_date,
              status, info, country_iso2, carrier, source)
       SELECT shipment_id, workspace_id, external_id, checkpoint_date, status, info,
              country_iso2, carrier, source
         FROM jsonb_populate_recordset(NULL::tracking_checkpoint, $1::jsonb)`,
      [JSON.stringify(rows.checkpoints.slice(i, i + HISTORY_CHUNK))],
    );
  await db.query('ANALYZE shipment; ANALYZE tracking_checkpoint');
}
