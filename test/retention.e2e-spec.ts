import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { hashToken } from '../src/auth/secret-token';
import { FileStorage } from '../src/media/file-storage';
import {
  RETENTION_LOCK_KEY,
  RetentionSweeper,
  type SweepResult,
} from '../src/retention/retention-sweeper';
import { createClient, type ClientCredentials } from './factories/identity.factory';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

// Files of deleted exports must be removed by the sweep itself, not by the background
// workspace deletion (which drains the same file queue every few seconds on every node).
process.env.WORKSPACE_DELETE_INTERVAL_SECONDS = '0';

const DAY = 24 * 3600 * 1000;
/** A moment `days` ago (negative: in the future). */
const ago = (days: number) => new Date(Date.now() - days * DAY);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScanned(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' ? [node['Relation Name']!] : [];
  return own.concat(...(node.Plans ?? []).map(seqScanned));
}

/**
 * The retention sweep with the default policy (events, workflow runs, widget logs and tokens
 * 30 days, exports and batch jobs 7, read notifications 90): rows of every kind on both sides
 * of their cut-off, finished or not, then one sweep.
 */
describe('retention sweep', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let sweeper: RetentionSweeper;
  let storage: FileStorage;
  let tenant: Tenant;
  let client: ClientCredentials;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    sweeper = app.get(RetentionSweeper);
    storage = app.get(FileStorage);
    tenant = await createTenant(app);
    client = await createClient(app, tenant);
    // Old rows other spec files left in this worker's database go first, so the counts
    // below are exactly this file's rows.
    await sweeper.sweep({ wait: true });
  });
  afterAll(() => closeTestApp(app));

  async function present(table: string, ids: string[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await db.query(
      `SELECT id FROM "${table}" WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return ids.filter((id) => rows.some((r) => r.id === id));
  }

  async function insert(sql: string, params: unknown[]): Promise<string> {
    const [row] = await db.query(`${sql} RETURNING id`, params);
    return row.id;
  }

  async function waitForExport(id: string): Promise<{ status: string; storage_key: string }> {
    for (let i = 0; i < 100; i++) {
      const [row] = await db.query(`SELECT status, storage_key FROM export WHERE id = $1`, [id]);
      if (row.status === 'done' || row.status === 'failed') return row;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`export ${id} did not finish`);
  }

  describe('one sweep deletes exactly the old finished rows', () => {
    /** Per table: the rows the sweep must delete, and those it must keep. */
    const gone: Record<string, string[]> = {};
    const kept: Record<string, string[]> = {};
    const files = { gone: [] as string[], kept: [] as string[] };
    const raw: Record<string, string> = {};
    let dryRun: SweepResult;
    let afterDryRun: Record<string, string[]>;
    let result: SweepResult;

    function expectRow(table: string, side: 'gone' | 'kept', id: string): string {
      const map = side === 'gone' ? gone : kept;
      (map[table] ??= []).push(id);
      return id;
    }

    beforeAll(async () => {
      const ws = tenant.workspaceId;
      const webhook = await insert(
        `INSERT INTO workflow (workspace_id, type, period) VALUES ($1, 'webhook', 'immediately')`,
        [ws],
      );
      const manual = await insert(
        `INSERT INTO workflow (workspace_id, type, period) VALUES ($1, 'webhook', 'manual')`,
        [ws],
      );
      const mail = await insert(
        `INSERT INTO email_notification (workspace_id, event) VALUES ($1, 'shipment.created')`,
        [ws],
      );

      // Outbox events and their deliveries.
      const event = (created: number, dispatched: boolean, delivered: number | null) =>
        insert(
          `INSERT INTO outbox_event (workspace_id, type, aggregate_type, aggregate_id, created_at, dispatched_at, delivered_at)
           VALUES ($1, 'shipment.created', 'shipment', gen_random_uuid(), $2, $3, $4)`,
          [
            ws,
            ago(created),
            dispatched ? ago(created) : null,
            delivered === null ? null : ago(delivered),
          ],
        );
      const delivery = (eventId: string, target: string, status: string, days: number) =>
        insert(
          `INSERT INTO event_delivery (outbox_event_id, workspace_id, workflow_id, email_notification_id,
                                       status, next_attempt_at, delivered_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $6)`,
          [
            eventId,
            ws,
            target === mail ? null : target,
            target === mail ? target : null,
            status,
            ago(days),
            ['delivered', 'skipped'].includes(status) ? ago(days) : null,
          ],
        );
      // Delivered (one target delivered, one given up), 40 days ago.
      const delivered = expectRow('outbox_event', 'gone', await event(41, true, 40));
      expectRow('event_delivery', 'gone', await delivery(delivered, webhook, 'delivered', 40));
      expectRow('event_delivery', 'gone', await delivery(delivered, mail, 'failed', 40));
      // No target: delivered when dispatched.
      expectRow('outbox_event', 'gone', await event(40, true, 40));
      // A skipped e-mail (condition unmet) 31 days ago.
      const skipped = expectRow('outbox_event', 'gone', await event(31, true, 31));
      expectRow('event_delivery', 'gone', await delivery(skipped, mail, 'skipped', 31));
      // Old but pending: held for a manual workflow, never dispatched, a delivery still due.
      const held = expectRow('outbox_event', 'kept', await event(40, true, null));
      expectRow('event_delivery', 'kept', await delivery(held, manual, 'held', 40));
      expectRow('outbox_event', 'kept', await event(40, false, null));
      const due = expectRow('outbox_event', 'kept', await event(40, true, 40));
      expectRow('event_delivery', 'kept', await delivery(due, mail, 'pending', 40));
      // Delivered within the 30 days.
      const recent = expectRow('outbox_event', 'kept', await event(30, true, 29));
      expectRow('event_delivery', 'kept', await delivery(recent, webhook, 'delivered', 29));

      // Workflow runs, by creation (a run still `running` that old was abandoned).
      const run = (status: string, days: number) =>
        insert(
          `INSERT INTO workflow_run (workspace_id, workflow_id, status, started_at, created_at)
           VALUES ($1, $2, $3, $4, $4)`,
          [ws, webhook, status, ago(days)],
        );
      expectRow('workflow_run', 'gone', await run('success', 40));
      expectRow('workflow_run', 'gone', await run('running', 31));
      expectRow('workflow_run', 'kept', await run('failed', 29));

      // Store webhook deliveries, by when they were handled (pending ones stay).
      const inbox = (key: string, processed: number | null) =>
        insert(
          `INSERT INTO store_sync_inbox (workflow_id, dedup_key, kind, store_order_id, received_at, processed_at)
           VALUES ($1, $2, 'order', '1', $3, $4)`,
          [webhook, key, ago(50), processed === null ? null : ago(processed)],
        );
      expectRow('store_sync_inbox', 'gone', await inbox('handled-long-ago', 40));
      expectRow('store_sync_inbox', 'kept', await inbox('handled-lately', 29));
      expectRow('store_sync_inbox', 'kept', await inbox('waiting', null));

      // Idempotency-Key answers (README "API conventions"): gone once expired, whatever the
      // tokens' days say.
      const answer = (key: string, expiresInSeconds: number) =>
        insert(
          `INSERT INTO idempotency_key (caller, method, path, idempotency_key, fingerprint, status, headers, expires_at)
           VALUES ('user:retention:', 'POST', '/shipments', $1, 'f', 201, '{}', now() + make_interval(secs => $2))`,
          [key, expiresInSeconds],
        );
      expectRow('idempotency_key', 'gone', await answer(`expired-${Date.now()}`, -1));
      expectRow('idempotency_key', 'kept', await answer(`live-${Date.now()}`, 3600));

      // Exports: two real ones (file stored through FileStorage), one finished 8 days ago.
      const exported: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await api(app, { token: tenant.token })
          .post('/export', { entity: 'shipments', workspaceId: `/workspaces/${ws}` })
          .expect(200);
        exported.push(res.body.id);
      }
      for (const [i, id] of exported.entries()) {
        const row = await waitForExport(id);
        expect(row.status).toBe('done');
        await db.query(`UPDATE export SET finished_at = $2, created_at = $2 WHERE id = $1`, [
          id,
          ago(i === 0 ? 8 : 6),
        ]);
        expectRow('export', i === 0 ? 'gone' : 'kept', id);
        (i === 0 ? files.gone : files.kept).push(row.storage_key);
        expect(await storage.open(row.storage_key)).not.toBeNull();
      }
      const exportRow = (status: string, finished: number | null) =>
        insert(
          `INSERT INTO export (user_id, workspace_id, entity, status, error, created_at, finished_at)
           VALUES ($1, $2, 'orders', $3, $4, $5, $6)`,
          [
            tenant.userId,
            ws,
            status,
            status === 'failed' ? 'The export could not be completed.' : null,
            ago(10),
            finished === null ? null : ago(finished),
          ],
        );
      expectRow('export', 'gone', await exportRow('failed', 9));
      expectRow('export', 'kept', await exportRow('queued', null));
      expectRow('export', 'kept', await exportRow('running', null));

      // Batch jobs, like exports.
      const batch = (status: string, finished: number | null) =>
        insert(
          `INSERT INTO batch_job (user_id, workspace_id, operation, entity, status, record_ids, total_count, created_at, finished_at)
           VALUES ($1, $2, 'change_status', 'shipments', $3, '{}', 0, $4, $5)`,
          [tenant.userId, ws, status, ago(10), finished === null ? null : ago(finished)],
        );
      expectRow('batch_job', 'gone', await batch('done', 8));
      expectRow('batch_job', 'gone', await batch('failed', 9));
      expectRow('batch_job', 'kept', await batch('running', null));
      expectRow('batch_job', 'kept', await batch('done', 6));

      // Widget logs: five old ones (several batches of 2), one recent.
      const widget = await insert(
        `INSERT INTO widget (workspace_id, title, type) VALUES ($1, 'Lookup', 'lookup')`,
        [ws],
      );
      const log = (days: number) =>
        insert(
          `INSERT INTO widget_log (widget_id, workspace_id, info, created_at) VALUES ($1, $2, 'lookup', $3)`,
          [widget, ws, ago(days)],
        );
      for (const days of [31, 32, 33, 34, 35]) expectRow('widget_log', 'gone', await log(days));
      expectRow('widget_log', 'kept', await log(29));

      // Notifications: read ones, counted from when they were read; unread ones stay.
      const notification = (created: number, read: number | null) =>
        insert(
          `INSERT INTO notification (user_id, tag, message, unread, read_at, created_at)
           VALUES ($1, 'export', 'Your export is ready.', $2, $3, $4)`,
          [tenant.userId, read === null, read === null ? null : ago(read), ago(created)],
        );
      expectRow('notification', 'gone', await notification(200, 91));
      expectRow('notification', 'kept', await notification(200, null));
      expectRow('notification', 'kept', await notification(200, 89));

      // Access tokens, counted from expiry.
      const accessToken = (expires: number, revoked: number | null = null) =>
        insert(
          `INSERT INTO access_token (token_hash, user_id, expires_at, revoked_at) VALUES ($1, $2, $3, $4)`,
          [
            hashToken(randomBytes(16).toString('hex')),
            tenant.userId,
            ago(expires),
            revoked === null ? null : ago(revoked),
          ],
        );
      expectRow('access_token', 'gone', await accessToken(31));
      expectRow('access_token', 'kept', await accessToken(29));
      expectRow('access_token', 'kept', await accessToken(-10, 40));

      // OAuth: refresh tokens by expiry; a code while a refresh token of its family survives.
      const code = (expires: number, used: boolean, familyId?: string) =>
        insert(
          `INSERT INTO oauth_authorization_code (code_hash, client_id, user_id, expires_at, used_at, family_id)
           VALUES ($1, $2, $3, $4, $5, COALESCE($6, gen_random_uuid()))`,
          [
            hashToken(randomBytes(16).toString('hex')),
            client.id,
            tenant.userId,
            ago(expires),
            used ? ago(expires) : null,
            familyId ?? null,
          ],
        );
      const refresh = async (
        name: string,
        familyId: string,
        expires: number,
        state: 'used' | 'revoked' | 'live',
      ) => {
        raw[name] = randomBytes(16).toString('hex');
        return insert(
          `INSERT INTO oauth_refresh_token (token_hash, family_id, client_id, user_id, scope, expires_at, used_at, revoked_at)
           VALUES ($1, $2, $3, $4, 'user', $5, $6, $7)`,
          [
            hashToken(raw[name]),
            familyId,
            client.id,
            tenant.userId,
            ago(expires),
            state === 'used' ? ago(expires + 13) : null,
            state === 'revoked' ? ago(expires + 1) : null,
          ],
        );
      };
      const familyOf = async (codeId: string) =>
        (
          await db.query(`SELECT family_id FROM oauth_authorization_code WHERE id = $1`, [codeId])
        )[0].family_id as string;
      // A dead family: every token expired over 30 days ago.
      const deadCode = expectRow('oauth_authorization_code', 'gone', await code(46, true));
      const dead = await familyOf(deadCode);
      expectRow('oauth_refresh_token', 'gone', await refresh('deadUsed', dead, 45, 'used'));
      expectRow('oauth_refresh_token', 'gone', await refresh('deadRevoked', dead, 40, 'revoked'));
      // A live family (an integration refreshing for months): its code stays.
      const liveCode = expectRow('oauth_authorization_code', 'kept', await code(60, true));
      const live = await familyOf(liveCode);
      expectRow('oauth_refresh_token', 'gone', await refresh('liveOld', live, 40, 'used'));
      expectRow('oauth_refresh_token', 'kept', await refresh('liveRecent', live, 1, 'used'));
      expectRow('oauth_refresh_token', 'kept', await refresh('liveCurrent', live, -13, 'live'));
      // A code never exchanged, long expired; a fresh one.
      expectRow('oauth_authorization_code', 'gone', await code(40, false));
      expectRow('oauth_authorization_code', 'kept', await code(-0.007, false));

      // E-mailed codes, by expiry.
      const userToken = (purpose: string, expires: number, used: boolean) =>
        insert(
          `INSERT INTO user_token (user_id, purpose, token_hash, expires_at, used_at) VALUES ($1, $2, $3, $4, $5)`,
          [
            tenant.userId,
            purpose,
            hashToken(randomBytes(16).toString('hex')),
            ago(expires),
            used ? ago(expires + 1) : null,
          ],
        );
      expectRow('user_token', 'gone', await userToken('verify_email', 40, false));
      expectRow('user_token', 'kept', await userToken('reset_password', 29, true));
      expectRow('user_token', 'kept', await userToken('reset_password', -0.04, false));

      dryRun = await sweeper.sweep({ dryRun: true });
      afterDryRun = {};
      for (const table of Object.keys(gone)) afterDryRun[table] = await present(table, gone[table]);
      // Batches of 2 rows: every table needs several statements.
      result = await sweeper.sweep({ batchSize: 2 });
    });

    const expectedCounts = {
      outbox_event: 3,
      event_delivery: 3,
      workflow_run: 2,
      store_sync_inbox: 1,
      idempotency_key: 1,
      export: 2,
      batch_job: 2,
      widget_log: 5,
      notification: 1,
      access_token: 1,
      oauth_refresh_token: 3,
      oauth_authorization_code: 2,
      user_token: 1,
    };

    it('reports the count per table, and the export file removed', () => {
      expect(result).toMatchObject({ dryRun: false, ran: true, complete: true, files: 1 });
      expect(result.deleted).toEqual(expectedCounts);
      expect(result.cutoffs).toEqual({
        events: expect.any(String),
        workflowRuns: expect.any(String),
        exports: expect.any(String),
        widgetLogs: expect.any(String),
        notifications: expect.any(String),
        tokens: expect.any(String),
      });
      expect(Date.now() - Date.parse(result.cutoffs.exports!)).toBeGreaterThanOrEqual(7 * DAY);
      expect(Date.now() - Date.parse(result.cutoffs.exports!)).toBeLessThan(7 * DAY + 60_000);
    });

    it('a dry run counted the same and deleted nothing', () => {
      expect(dryRun).toMatchObject({ dryRun: true, ran: true, files: 1 });
      expect(dryRun.deleted).toEqual(expectedCounts);
      expect(afterDryRun).toEqual(gone);
    });

    it.each(Object.keys(expectedCounts))(
      '%s: the old finished rows are gone, the rest stay',
      async (table) => {
        expect(await present(table, gone[table])).toEqual([]);
        expect(await present(table, kept[table] ?? [])).toEqual(kept[table] ?? []);
      },
    );

    it('removed the stored file of the deleted export only', async () => {
      expect(await storage.open(files.gone[0])).toBeNull();
      const left = await storage.open(files.kept[0]);
      expect(left).not.toBeNull();
      left!.stream.destroy();
      await api(app, { token: tenant.token })
        .get(`/exports/${kept.export[0]}/download`)
        .expect(200);
      await api(app, { token: tenant.token }).get(`/exports/${gone.export[0]}`).expect(404);
    });

    it('keeps live tokens working', async () => {
      await api(app, { token: tenant.token }).get('/workspaces').expect(200);
    });

    it('keeps refresh-token reuse detection for rotated tokens within the grace', async () => {
      const refresh = (token: string) =>
        request(app.getHttpServer()).post('/oauth/v2/token').type('form').send({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        });
      const current = async () =>
        (
          await db.query(`SELECT revoked_at FROM oauth_refresh_token WHERE token_hash = $1`, [
            hashToken(raw.liveCurrent),
          ])
        )[0].revoked_at;
      // A deleted rotated token is unknown: refused, the family untouched.
      expect((await refresh(raw.liveOld).expect(400)).body.error).toBe('invalid_grant');
      expect(await current()).toBeNull();
      // A kept one still trips the wire: the whole family is revoked.
      expect((await refresh(raw.liveRecent).expect(400)).body.error).toBe('invalid_grant');
      expect(await current()).not.toBeNull();
      expect(
        (
          await db.query(`SELECT revoked_at FROM oauth_authorization_code WHERE id = $1`, [
            kept.oauth_authorization_code[0],
          ])
        )[0].revoked_at,
      ).not.toBeNull();
    });

    it('a second sweep finds nothing left', async () => {
      const again = await sweeper.sweep();
      expect(Object.values(again.deleted).every((n) => n === 0)).toBe(true);
      expect(again.files).toBe(0);
    });
  });

  describe('with other nodes', () => {
    let other: Client;
    beforeAll(async () => {
      other = new Client({ connectionString: process.env.DATABASE_URL });
      await other.connect();
    });
    afterAll(() => other.end());

    async function oldWidgetLog(): Promise<string> {
      const [widget] = await db.query(
        `INSERT INTO widget (workspace_id, title, type) VALUES ($1, 'Lookup', 'lookup') RETURNING id`,
        [tenant.workspaceId],
      );
      const [row] = await db.query(
        `INSERT INTO widget_log (widget_id, workspace_id, created_at) VALUES ($1, $2, now() - interval '40 days') RETURNING id`,
        [widget.id, tenant.workspaceId],
      );
      return row.id;
    }
    const exists = async (id: string) =>
      (await db.query(`SELECT 1 FROM widget_log WHERE id = $1`, [id])).length === 1;

    it('skips the round while another node sweeps; purge waits for it', async () => {
      const id = await oldWidgetLog();
      await other.query('SELECT pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
      try {
        const skipped = await sweeper.sweep();
        expect(skipped).toMatchObject({ ran: false, complete: false });
        expect(await exists(id)).toBe(true);
        let finished = false;
        const waiting = sweeper.sweep({ wait: true }).then((r) => {
          finished = true;
          return r;
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(finished).toBe(false);
        await other.query('SELECT pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
        expect((await waiting).deleted.widget_log).toBe(1);
        expect(await exists(id)).toBe(false);
      } finally {
        await other.query('SELECT pg_advisory_unlock_all()');
      }
    });

    it('leaves rows another transaction holds for the next sweep instead of waiting', async () => {
      const held = await oldWidgetLog();
      const free = await oldWidgetLog();
      await other.query('BEGIN');
      try {
        await other.query('SELECT id FROM widget_log WHERE id = $1 FOR UPDATE', [held]);
        const result = await sweeper.sweep();
        expect(result.deleted.widget_log).toBe(1);
        expect(await exists(free)).toBe(false);
        expect(await exists(held)).toBe(true);
      } finally {
        await other.query('COMMIT');
      }
      expect((await sweeper.sweep()).deleted.widget_log).toBe(1);
      expect(await exists(held)).toBe(false);
    });
  });

  /**
   * The sweep reads the tables that grow with traffic through an index: with many recent rows
   * (analysed), each rule's batch statement must not scan them. (Small tables kept to a few
   * days by the sweep itself, export, batch_job, user_token and oauth_authorization_code,
   * may be scanned.)
   */
  describe('query plans', () => {
    const LARGE = [
      'outbox_event',
      'event_delivery',
      'workflow_run',
      'widget_log',
      'notification',
      'access_token',
      'oauth_refresh_token',
    ];
    let bulk: Tenant;

    beforeAll(async () => {
      bulk = await createTenant(app);
      const bulkClient = await createClient(app, bulk);
      const ws = bulk.workspaceId;
      const [wf] = await db.query(
        `INSERT INTO workflow (workspace_id, type, period) VALUES ($1, 'webhook', 'immediately') RETURNING id`,
        [ws],
      );
      const [widget] = await db.query(
        `INSERT INTO widget (workspace_id, title, type) VALUES ($1, 'Lookup', 'lookup') RETURNING id`,
        [ws],
      );
      const n = 20000;
      await db.query(
        `WITH e AS (
           INSERT INTO outbox_event (workspace_id, type, aggregate_type, aggregate_id, created_at, dispatched_at, delivered_at)
           SELECT $1, 'shipment.created', 'shipment', gen_random_uuid(), now() - g * interval '1 minute', now(), now()
             FROM generate_series(1, $2) g RETURNING id)
         INSERT INTO event_delivery (outbox_event_id, workspace_id, workflow_id, status, next_attempt_at, delivered_at)
         SELECT e.id, $1, $3, 'delivered', now(), now() FROM e`,
        [ws, n, wf.id],
      );
      await db.query(
        `INSERT INTO workflow_run (workspace_id, workflow_id, status, created_at)
         SELECT $1, $3, 'success', now() - g * interval '1 minute' FROM generate_series(1, $2) g`,
        [ws, n, wf.id],
      );
      await db.query(
        `INSERT INTO widget_log (widget_id, workspace_id, created_at)
         SELECT $3, $1, now() - g * interval '1 minute' FROM generate_series(1, $2) g`,
        [ws, n, widget.id],
      );
      await db.query(
        `INSERT INTO notification (user_id, tag, message, unread, read_at)
         SELECT $1, 'export', 'm', g % 2 = 0, CASE WHEN g % 2 = 1 THEN now() END FROM generate_series(1, $2) g`,
        [bulk.userId, n],
      );
      await db.query(
        `INSERT INTO access_token (token_hash, user_id, expires_at)
         SELECT md5(random()::text || g), $1, now() + interval '1 hour' FROM generate_series(1, $2) g`,
        [bulk.userId, n],
      );
      await db.query(
        `INSERT INTO oauth_refresh_token (token_hash, family_id, client_id, user_id, expires_at)
         SELECT md5(random()::text || g), gen_random_uuid(), $3, $1, now() + interval '14 days'
           FROM generate_series(1, $2) g`,
        [bulk.userId, n, bulkClient.id],
      );
      for (const table of LARGE) await db.query(`ANALYZE "${table}"`);
    });
    afterAll(async () => {
      await db.query(`DELETE FROM workspace WHERE id = $1`, [bulk.workspaceId]);
      await db.query(`DELETE FROM "user" WHERE id = $1`, [bulk.userId]);
    });

    /**
     * The plan with sequential scans priced out: the planner still takes one when no index
     * can serve the statement, so what is checked is that an index path exists, whatever the
     * statistics other spec files left in this worker's tables.
     */
    async function plan(sql: string, params: unknown[]): Promise<PlanNode> {
      return db.transaction(async (em) => {
        await em.query('SET LOCAL enable_seqscan = off');
        const [row] = await em.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        return row['QUERY PLAN'][0].Plan;
      });
    }

    // The rules that read a large table (the others only touch small ones): every module's,
    // as the application collected them.
    const readingLarge = () =>
      sweeper.rules.filter((r) => LARGE.some((t) => new RegExp(`\\b${t}\\b`).test(r.countSql)));

    it('covers the rules reading large tables', () => {
      expect(readingLarge().map((r) => r.table)).toEqual([
        'outbox_event',
        'workflow_run',
        'widget_log',
        'notification',
        'access_token',
        'oauth_authorization_code',
        'oauth_refresh_token',
      ]);
    });

    it('the batch statement of each scans none of the large tables', async () => {
      for (const rule of readingLarge()) {
        const scanned = seqScanned(await plan(rule.batchSql, [ago(30), 5000])).filter((t) =>
          LARGE.includes(t),
        );
        expect({ rule: rule.table, scanned }).toEqual({ rule: rule.table, scanned: [] });
      }
    });

    it("an outbox event's deliveries are found through an index (the ON DELETE CASCADE check)", async () => {
      const scanned = seqScanned(
        await plan(`DELETE FROM event_delivery WHERE outbox_event_id = $1`, [
          '00000000-0000-0000-0000-000000000000',
        ]),
      );
      expect(scanned).toEqual([]);
    });
  });
});
