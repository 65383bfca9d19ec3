import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANGE_STATUS_NOTIFICATION_TAG } from '../../src/batches/batch-jobs';
import { EXPORT_NOTIFICATION_TAG } from '../../src/exports/exports.service';
import { testTrackingNumber } from '../factories/commerce.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { api } from '../support/http';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import {
  eventually,
  killAllAppProcesses,
  startAppProcess,
  type AppProcess,
} from './support/app-process';
import { installRefreshLog, refreshesPerLease } from './support/refresh-log';
import { createSpecDatabase, type SpecDatabase } from './support/spec-database';

/** Where each kind of background work stops in the first process (src/common/pause-point.ts). */
const PAUSES = [
  'tracking.refresh.applied',
  'event.delivery.sent',
  'import.row.committed',
  'batch.change.uncommitted',
  'export.file.written',
];
const DUE_SHIPMENTS = 150;
const IMPORT_ROWS = 5;

/**
 * Crash safety of background work: one process runs a refresh batch, an outbox delivery
 * batch (webhooks and e-mails), an import, an async status batch and an export, each stopped
 * halfway at a pause point; it is killed (SIGKILL, no shutdown hook), a second process starts
 * on the same database, and every piece of work must then be finished exactly as if nothing
 * happened: nothing lost, events delivered at least once with the same event id, no shipment
 * refreshed twice within one lease, no batch applied or notified twice.
 */
describe('crash recovery of background work (kill -9 halfway)', () => {
  let spec: SpecDatabase;
  let dataDir: string;
  let receiver: WebhookReceiver;
  let smtp: TestSmtp;
  let first: AppProcess;
  let second: AppProcess;
  let events: Tenant;
  let due: Tenant;
  const ids = { import: '', batch: '', export: '', shipments: [] as string[], done: '' };
  const importNumbers = Array.from({ length: IMPORT_ROWS }, () => testTrackingNumber('102'));
  let receivedBeforeCrash: string[] = [];
  /** The state of each piece of work when the first process was killed. */
  let atCrash: Record<string, unknown> = {};

  const env = () => ({
    DATABASE_URL: spec.url,
    DATA_DIR: dataDir,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    SMTP_URL: smtp.url,
    TRACKING_REFRESH_ENABLED: 'true',
    TRACKING_REFRESH_INTERVAL_SECONDS: '1',
    TRACKING_REFRESH_LEASE_SECONDS: '300',
    EVENT_DELIVERY_ENABLED: 'true',
    EVENT_DELIVERY_INTERVAL_MS: '200',
    // A dead node's leased deliveries and jobs come back within seconds here.
    EVENT_DELIVERY_LEASE_SECONDS: '3',
    JOB_EXPIRE_SECONDS: '4',
    JOB_RETRY_DELAY_SECONDS: '1',
    JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
    NOTE_REMINDER_INTERVAL_SECONDS: '0',
  });
  const http = (app: AppProcess, tenant: Tenant) => api(app.url, { token: tenant.token });
  const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
    (await spec.db.query(sql, params))[0] as T;

  beforeAll(async () => {
    spec = await createSpecDatabase('crash');
    await installRefreshLog(spec.db);
    dataDir = mkdtempSync(join(tmpdir(), 'crash-recovery-'));
    receiver = await startWebhookReceiver();
    smtp = await startTestSmtp();
    const asApp = { get: () => spec.db } as unknown as INestApplication;
    events = await createTenant(asApp);
    due = await createTenant(asApp);

    first = await startAppProcess('first', { ...env(), TEST_PAUSE_AT: PAUSES.join(',') });

    // Outbox: a webhook and an e-mail notification, then shipments whose events they get.
    await http(first, events)
      .post('/workflows', {
        title: 'ERP',
        type: 'webhook',
        workspace: `/workspaces/${events.workspaceId}`,
        enabled: true,
        period: 'immediately',
        credentials: {
          type: 'webhook',
          parameters: { url: receiver.url('/erp') },
          secrets: { signingSecret: 'whsec_crash_0123456789abcdef' },
        },
      })
      .expect(201);
    await http(first, events)
      .post('/email_notifications', {
        workspace: `/workspaces/${events.workspaceId}`,
        event: 'shipment.in_transit',
        title: 'On its way',
        subject: 'Parcel {{ trackingNumber }} is on its way',
        body: '<p>{{ trackingStatusTitle }}</p>',
      })
      .expect(201);
    for (let i = 0; i < 6; i++) {
      const res = await http(first, events)
        .post('/shipments', {
          workspace: `/workspaces/${events.workspaceId}`,
          trackingNumber: testTrackingNumber('102'),
          email: `customer${i}@example.test`,
        })
        .expect(201);
      ids.shipments.push(res.body.id);
    }

    // Refresh: shipments written without tracking (as SQL or a bulk load would) are due now.
    await spec.db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier)
       SELECT $1, 'TM102CRASH' || n || 'TM', 'tm-test' FROM generate_series(1, $2) n`,
      [due.workspaceId, DUE_SHIPMENTS],
    );

    const content = `tracking_number\n${importNumbers.join('\n')}\n`;
    ids.import = (
      await http(first, events)
        .post('/imports', { workspace: events.workspaceId, content, entity: 'shipments' })
        .expect(201)
    ).body.id;

    ids.done = (
      await http(first, events)
        .post('/statuses', {
          workspace: `/workspaces/${events.workspaceId}`,
          entity: 'shipments',
          code: 'done',
        })
        .expect(201)
    ).body.id;
    ids.batch = (
      await http(first, events)
        .post('/change_status_batch_async', {
          entity: 'shipments',
          ids: ids.shipments,
          statusId: ids.done,
        })
        .expect(200)
    ).body.id;

    ids.export = (
      await http(first, events)
        .post('/export', {
          entity: 'shipments',
          workspaceId: `/workspaces/${events.workspaceId}`,
        })
        .expect(200)
    ).body.id;

    await Promise.all(PAUSES.map((p) => first.waitForLine(new RegExp(`^PAUSED ${p}$`), 30_000)));
    receivedBeforeCrash = receiver.received.map((r) => String(r.headers['x-event-id']));
    atCrash = {
      refreshed: (
        await one<{ n: number }>(`SELECT count(*)::int AS n FROM reliability_refresh_log`)
      ).n,
      import: await one(`SELECT status, processed_rows FROM import WHERE id = $1`, [ids.import]),
      batch: await one(`SELECT status FROM batch_job WHERE id = $1`, [ids.batch]),
      batchChanged: (
        await one<{ n: number }>(
          `SELECT count(*)::int AS n FROM shipment WHERE shipment_status_id = $1`,
          [ids.done],
        )
      ).n,
      export: await one(`SELECT status FROM export WHERE id = $1`, [ids.export]),
      undelivered: (
        await one<{ n: number }>(
          `SELECT count(*)::int AS n FROM event_delivery WHERE status = 'sending'`,
        )
      ).n,
    };
    await first.crash();

    second = await startAppProcess('second', env());
  }, 180_000); // child processes start slowly on a busy 2-core machine

  afterAll(async () => {
    await killAllAppProcesses();
    await receiver?.close();
    await smtp?.close();
    await spec?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('stopped every kind of work halfway before the crash', async () => {
    expect(first.exited).toBe(true);
    expect(atCrash).toEqual({
      // One refresh job of the claim done, the other still queued.
      refreshed: expect.any(Number),
      import: { status: 'processing', processed_rows: 1 },
      batch: { status: 'running' },
      batchChanged: 0, // made in a transaction that never committed
      export: { status: 'running' },
      undelivered: expect.any(Number),
    });
    expect(atCrash.refreshed).toBeGreaterThan(0);
    expect(atCrash.refreshed).toBeLessThan(DUE_SHIPMENTS);
    // Webhooks were sent, and their deliveries still leased (sending) when the process died.
    expect(receivedBeforeCrash.length).toBeGreaterThan(0);
    expect(atCrash.undelivered).toBeGreaterThan(0);
  });

  it('refreshes every due shipment exactly once: the retried job skips what its lease no longer holds', async () => {
    const refreshed = await eventually('all due shipments refreshed', async () => {
      const { n } = await one<{ n: number }>(
        `SELECT count(DISTINCT l.shipment_id)::int AS n FROM reliability_refresh_log l
           JOIN shipment s ON s.id = l.shipment_id WHERE s.workspace_id = $1`,
        [due.workspaceId],
      );
      return n === DUE_SHIPMENTS && n;
    });
    expect(refreshed).toBe(DUE_SHIPMENTS);
    // Let the job that died halfway be retried (it expires, then runs again) before counting.
    await eventually('no refresh job left', async () => {
      const { n } = await one<{ n: number }>(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'tracking.refresh' AND state < 'completed'`,
      );
      return n === 0;
    });
    const perLease = await refreshesPerLease(spec.db, due.workspaceId);
    expect(perLease.filter((r) => r.refreshes > 1)).toEqual([]);
    // And each once at all: the lease is long, so one claim covers the whole test.
    expect(perLease).toHaveLength(DUE_SHIPMENTS);
    expect(new Set(perLease.map((r) => r.shipment_id)).size).toBe(DUE_SHIPMENTS);
  });

  it('delivers every event at least once, again with the same event id after the crash', async () => {
    await eventually('every outbox event delivered', async () => {
      const { n } = await one<{ n: number }>(
        `SELECT count(*)::int AS n FROM outbox_event WHERE delivered_at IS NULL`,
      );
      return n === 0;
    });
    const outbox: Array<{ id: string }> = await spec.db.query(
      `SELECT e.id FROM outbox_event e
        WHERE e.workspace_id = $1
          AND EXISTS (SELECT 1 FROM event_delivery d WHERE d.outbox_event_id = e.id AND d.workflow_id IS NOT NULL)`,
      [events.workspaceId],
    );
    const received = new Map<string, string[]>();
    for (const r of receiver.received) {
      const id = String(r.headers['x-event-id']);
      expect(JSON.parse(r.body).id).toBe(id);
      received.set(id, [...(received.get(id) ?? []), r.body]);
    }
    for (const { id } of outbox) expect(received.has(id)).toBe(true);
    // What was sent but not recorded before the crash is sent again, as the same event.
    for (const id of receivedBeforeCrash) {
      expect(received.get(id)!.length).toBeGreaterThanOrEqual(2);
      expect(new Set(received.get(id)!.map((b) => JSON.parse(b).id))).toEqual(new Set([id]));
    }
    const failed: Array<{ status: string }> = await spec.db.query(
      `SELECT status FROM event_delivery WHERE status NOT IN ('delivered', 'skipped')`,
    );
    expect(failed).toEqual([]);
    for (let i = 0; i < 6; i++) {
      expect(smtp.messages.some((m) => m.to.includes(`customer${i}@example.test`))).toBe(true);
    }
  });

  it('finishes the import after its last committed row, creating each row once', async () => {
    const done = await eventually('import completed', async () => {
      const res = await http(second, events).get(`/imports/${ids.import}`).expect(200);
      return res.body.status === 'completed' && res.body;
    });
    expect(done).toMatchObject({ processedRows: IMPORT_ROWS, createdCount: IMPORT_ROWS });
    const rows: Array<{ tracking_number: string; n: number }> = await spec.db.query(
      `SELECT tracking_number, count(*)::int AS n FROM shipment
        WHERE tracking_number = ANY($1::text[]) GROUP BY 1`,
      [importNumbers],
    );
    expect(rows.map((r) => r.n)).toEqual(Array(IMPORT_ROWS).fill(1));
  });

  it('runs the async batch once: its uncommitted change was rolled back, then made and notified once', async () => {
    const job = await eventually('batch job done', async () => {
      const res = await http(second, events).get(`/batch_jobs/${ids.batch}`).expect(200);
      return res.body.status === 'done' && res.body;
    });
    expect(job.changedCount).toBe(ids.shipments.length);
    const statuses: Array<{ status_id: string }> = await spec.db.query(
      `SELECT shipment_status_id AS status_id FROM shipment WHERE id = ANY($1::uuid[])`,
      [ids.shipments],
    );
    expect(statuses.map((s) => s.status_id)).toEqual(Array(ids.shipments.length).fill(ids.done));
    const { n } = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM notification WHERE tag = $1 AND data ? $2`,
      [CHANGE_STATUS_NOTIFICATION_TAG, `/batch_jobs/${ids.batch}`],
    );
    expect(n).toBe(1);
  });

  it('finishes the export once, with one notification and a file to download', async () => {
    const done = await eventually('export done', async () => {
      const res = await http(second, events).get(`/exports/${ids.export}`).expect(200);
      return res.body.status === 'done' && res.body;
    });
    expect(done.rowCount).toBeGreaterThanOrEqual(ids.shipments.length);
    const { n } = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM notification WHERE tag = $1 AND data ? $2`,
      [EXPORT_NOTIFICATION_TAG, `/exports/${ids.export}`],
    );
    expect(n).toBe(1);
    const file = await http(second, events).get(`/exports/${ids.export}/download`).expect(200);
    expect(file.text.split('\n').filter(Boolean).length).toBe(done.rowCount + 1);
    // The file the killed attempt had written was replaced, not left beside the new one.
    expect(readdirSync(join(dataDir, 'media', ids.export))).toEqual(['export.csv']);
  });
});
