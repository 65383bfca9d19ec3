import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_NOTIFICATION_TAG } from '../../src/exports/exports.service';
import { testTrackingNumber } from '../factories/commerce.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { api } from '../support/http';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import {
  eventually,
  killAllAppProcesses,
  startAppProcess,
  type AppProcess,
} from './support/app-process';
import { installRefreshLog, refreshesPerLease } from './support/refresh-log';
import { createSpecDatabase, type SpecDatabase } from './support/spec-database';

const NODES = 3;
const POSTED_SHIPMENTS = 24;
const DUE_SHIPMENTS = 300;
const REMINDERS = 60;
const EXPORTS = 3;
const TOKEN_LIMIT_PER_CLIENT = 10;
const TOKEN_REQUESTS = 24;

/**
 * Three API processes on one PostgreSQL, every kind of background work on in all three
 * (refresh, outbox delivery, job workers, reminders), under a load of writes through all
 * three: each due shipment is refreshed once, each event delivered once (the receiver counts
 * by event id), each scheduled job run once, and the token rate limit is one budget for all.
 */
describe('several nodes on one database', () => {
  let spec: SpecDatabase;
  let dataDir: string;
  let receiver: WebhookReceiver;
  let nodes: AppProcess[] = [];
  let writer: Tenant;
  let due: Tenant;
  const exportIds: string[] = [];
  const reminderIds: string[] = [];
  const tokenAnswers: Array<{ status: number; retryAfter?: string }> = [];

  const node = (i: number) => nodes[i % NODES];
  const http = (i: number, tenant: Tenant) => api(node(i).url, { token: tenant.token });
  const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
    (await spec.db.query(sql, params))[0] as T;

  beforeAll(async () => {
    spec = await createSpecDatabase('nodes');
    await installRefreshLog(spec.db);
    dataDir = mkdtempSync(join(tmpdir(), 'several-nodes-'));
    receiver = await startWebhookReceiver();
    const asApp = { get: () => spec.db } as unknown as INestApplication;
    writer = await createTenant(asApp);
    due = await createTenant(asApp);

    const env = {
      DATABASE_URL: spec.url,
      DATA_DIR: dataDir,
      DATABASE_POOL_SIZE: '5',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      TRACKING_REFRESH_ENABLED: 'true',
      TRACKING_REFRESH_INTERVAL_SECONDS: '1',
      // Small claims, so every node gets some of the due shipments.
      TRACKING_REFRESH_BATCH_SIZE: '40',
      EVENT_DELIVERY_ENABLED: 'true',
      EVENT_DELIVERY_INTERVAL_MS: '100',
      EVENT_DELIVERY_BATCH_SIZE: '5',
      JOB_WORKERS_ENABLED: 'true',
      NOTE_REMINDER_INTERVAL_SECONDS: '1',
      RATE_LIMIT_STORE: 'postgres',
      TOKEN_RATE_LIMIT_PER_CLIENT: String(TOKEN_LIMIT_PER_CLIENT),
      TOKEN_RATE_LIMIT_PER_ADDRESS: '1000',
    };
    nodes = await Promise.all(
      Array.from({ length: NODES }, (_, i) => startAppProcess(`node${i + 1}`, env)),
    );

    await http(0, writer)
      .post('/workflows', {
        title: 'ERP',
        type: 'webhook',
        workspace: `/workspaces/${writer.workspaceId}`,
        enabled: true,
        period: 'immediately',
        credentials: {
          type: 'webhook',
          parameters: { url: receiver.url('/erp') },
          secrets: { signingSecret: 'whsec_nodes_0123456789abcdef' },
        },
      })
      .expect(201);

    // Shipments due for a refresh, written without tracking (as a bulk load would).
    await spec.db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier)
       SELECT $1, 'TM102NODES' || n || 'TM', 'tm-test' FROM generate_series(1, $2) n`,
      [due.workspaceId, DUE_SHIPMENTS],
    );
    // Note reminders due now.
    const [note] = await spec.db.query(
      `INSERT INTO note (workspace_id, entity, entity_id, comment, user_id)
       VALUES ($1, 'workspaces', $1, 'Call the carrier', $2) RETURNING id`,
      [writer.workspaceId, writer.userId],
    );
    const reminders: Array<{ id: string }> = await spec.db.query(
      `INSERT INTO note_reminder (workspace_id, note_id, user_id, remind_at)
       SELECT $1, $2, $3, now() FROM generate_series(1, $4) RETURNING id`,
      [writer.workspaceId, note.id, writer.userId, REMINDERS],
    );
    reminderIds.push(...reminders.map((r) => r.id));

    // Load through every node at once: shipments (two events each) and exports.
    const writes = Array.from({ length: POSTED_SHIPMENTS }, (_, i) => async () => {
      await http(i, writer)
        .post('/shipments', {
          workspace: `/workspaces/${writer.workspaceId}`,
          trackingNumber: testTrackingNumber('102'),
        })
        .expect(201);
    });
    const exports = Array.from({ length: EXPORTS }, (_, i) => async () => {
      const res = await http(i, writer)
        .post('/export', { entity: 'shipments', workspaceId: `/workspaces/${writer.workspaceId}` })
        .expect(200);
      exportIds.push(res.body.id);
    });
    const queue = [...writes, ...exports];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let task = queue.shift(); task; task = queue.shift()) await task();
      }),
    );

    // The token endpoint's per-client budget, spent through all three nodes.
    const client = await api(node(0).url, { token: writer.token })
      .post('/oauth_clients', { name: 'Sync', redirectUris: [] })
      .expect(201);
    for (let i = 0; i < TOKEN_REQUESTS; i++) {
      const res = await api(node(i).url).get(
        `/oauth/v2/token?grant_type=client_credentials&client_id=${client.body.publicId}&client_secret=${client.body.secret}`,
      );
      tokenAnswers.push({ status: res.status, retryAfter: res.headers['retry-after'] });
    }
  }, 180_000); // child processes start slowly on a busy 2-core machine

  afterAll(async () => {
    await killAllAppProcesses();
    await receiver?.close();
    await spec?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('refreshes each due shipment once', async () => {
    await eventually(
      'every due shipment refreshed',
      async () => {
        const { n } = await one<{ n: number }>(
          `SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1 AND last_tracked_at IS NULL`,
          [due.workspaceId],
        );
        return n === 0;
      },
      45_000,
    );
    const perLease = await refreshesPerLease(spec.db, due.workspaceId);
    expect(perLease.filter((r) => r.refreshes > 1)).toEqual([]);
    expect(new Set(perLease.map((r) => r.shipment_id)).size).toBe(DUE_SHIPMENTS);
    expect(perLease).toHaveLength(DUE_SHIPMENTS);
  });

  it('delivers each event once', async () => {
    const outbox: Array<{ id: string }> = await spec.db.query(
      `SELECT id FROM outbox_event WHERE workspace_id = $1`,
      [writer.workspaceId],
    );
    expect(outbox).toHaveLength(POSTED_SHIPMENTS * 2); // shipment.created + status_changed
    await eventually('every event delivered', async () => {
      const { n } = await one<{ n: number }>(
        `SELECT count(*)::int AS n FROM outbox_event WHERE workspace_id = $1 AND delivered_at IS NULL`,
        [writer.workspaceId],
      );
      return n === 0;
    });
    const counts = new Map<string, number>();
    for (const r of receiver.received) {
      const id = String(r.headers['x-event-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(outbox.map((e) => e.id).sort());
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  });

  it('runs each scheduled job once: every reminder notifies once, every export is made once', async () => {
    await eventually('every reminder sent', async () => {
      const { n } = await one<{ n: number }>(
        `SELECT count(*)::int AS n FROM note_reminder WHERE id = ANY($1::uuid[]) AND sent_at IS NULL`,
        [reminderIds],
      );
      return n === 0;
    });
    const reminded: Array<{ reminder: string; n: number }> = await spec.db.query(
      `SELECT d.reminder, count(*)::int AS n
         FROM notification, jsonb_array_elements_text(data) AS d(reminder)
        WHERE tag = 'note_reminder' AND d.reminder LIKE '/note_reminders/%'
        GROUP BY 1`,
    );
    expect(reminded).toHaveLength(REMINDERS);
    expect(reminded.filter((r) => r.n !== 1)).toEqual([]);

    await eventually('every export done', async () => {
      const { n } = await one<{ n: number }>(
        `SELECT count(*)::int AS n FROM export WHERE id = ANY($1::uuid[]) AND status = 'done'`,
        [exportIds],
      );
      return n === EXPORTS;
    });
    const attempts: Array<{ attempts: number }> = await spec.db.query(
      `SELECT attempts FROM export WHERE id = ANY($1::uuid[])`,
      [exportIds],
    );
    expect(attempts.map((a) => a.attempts)).toEqual(Array(EXPORTS).fill(1));
    const notified: Array<{ n: number }> = await spec.db.query(
      `SELECT count(*)::int AS n FROM notification WHERE tag = $1 GROUP BY data`,
      [EXPORT_NOTIFICATION_TAG],
    );
    expect(notified.map((r) => r.n)).toEqual(Array(EXPORTS).fill(1));
  });

  it('shares the token rate limit: one budget for the three nodes', () => {
    const granted = tokenAnswers.filter((a) => a.status === 200);
    const limited = tokenAnswers.filter((a) => a.status === 429);
    expect(granted).toHaveLength(TOKEN_LIMIT_PER_CLIENT);
    expect(limited).toHaveLength(TOKEN_REQUESTS - TOKEN_LIMIT_PER_CLIENT);
    for (const answer of limited) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  });
});
