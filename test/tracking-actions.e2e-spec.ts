import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { testTrackingNumber } from './factories/commerce.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('tracking actions: checks on demand and pushed checkpoints', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const http = () => api(app, { token: tenant.token });
  const workspace = () => `/workspaces/${tenant.workspaceId}`;
  async function shipment(prefix: string, extra: Record<string, unknown> = {}) {
    const res = await http()
      .post('/shipments', {
        workspace: workspace(),
        trackingNumber: testTrackingNumber(prefix),
        ...extra,
      })
      .expect(201);
    return res.body as Record<string, any>;
  }
  /** Forgets the tracking fields, as if the shipment had never been tracked. */
  const untrack = (id: string) =>
    db.query(
      `UPDATE shipment SET tracking_status = NULL, last_status_update = NULL, days_in_transit = NULL WHERE id = $1`,
      [id],
    );

  describe('POST /check_tracking_numbers', () => {
    it('re-tracks one shipment by id and answers the shipment', async () => {
      const s = await shipment('204');
      await untrack(s.id);
      const res = await http()
        .post('/check_tracking_numbers', { ids: [s.id] })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
      expect(res.body).toMatchObject({
        '@context': '/contexts/Shipment',
        '@id': `/shipments/${s.id}`,
        '@type': 'Shipment',
        trackingStatus: 'delivery_in_progress',
      });
    });

    it('re-tracks several by tracking number in a workspace and answers a collection', async () => {
      const a = await shipment('200');
      const b = await shipment('410');
      await untrack(a.id);
      await untrack(b.id);
      const res = await http()
        .post('/check_tracking_numbers', {
          workspaceId: tenant.workspaceId,
          trackingNumbers: [
            { number: a.trackingNumber, originCarrier: 'tm-test' },
            b.trackingNumber,
          ],
        })
        .expect(200);
      expect(res.body['@type']).toBe('hydra:Collection');
      expect(res.body['hydra:totalItems']).toBe(2);
      expect(
        res.body['hydra:member'].map((m: Record<string, unknown>) => [m['@id'], m.trackingStatus]),
      ).toEqual([
        [`/shipments/${a.id}`, 'delivered'],
        [`/shipments/${b.id}`, 'unsuccessful_delivery'],
      ]);
      const json = await http()
        .json()
        .post('/check_tracking_numbers', { ids: [a['@id'], b['@id']] })
        .expect(200);
      expect(json.body).toHaveLength(2);
    });

    it('rejects bad input: 400 for types, 422 for values, 404 for foreign shipments', async () => {
      const s = await shipment('102');
      await http().post('/check_tracking_numbers', { ids: 'x' }).expect(400);
      await http()
        .post('/check_tracking_numbers', { ids: [1] })
        .expect(400);
      await http()
        .post('/check_tracking_numbers', { trackingNumbers: [[]] })
        .expect(400);
      const none = await http().post('/check_tracking_numbers', {}).expect(422);
      expect(none.body.violations[0].propertyPath).toBe('trackingNumbers');
      const empty = await http().post('/check_tracking_numbers', { ids: [] }).expect(422);
      expect(empty.body.violations[0].propertyPath).toBe('ids');
      const noWorkspace = await http()
        .post('/check_tracking_numbers', { trackingNumbers: [s.trackingNumber] })
        .expect(422);
      expect(noWorkspace.body.violations[0].propertyPath).toBe('workspaceId');
      const unknown = await http()
        .post('/check_tracking_numbers', {
          workspaceId: workspace(),
          trackingNumbers: [s.trackingNumber, 'NOPE123'],
        })
        .expect(422);
      expect(unknown.body.violations).toEqual([
        expect.objectContaining({ propertyPath: 'trackingNumbers[1]' }),
      ]);
      await http()
        .post('/check_tracking_numbers', { ids: ['6b3c1a52-7d3e-4b59-9a43-0c5f5d9e2f10'] })
        .expect(404);
      await http()
        .post('/check_tracking_numbers', { ids: ['not-a-uuid'] })
        .expect(404);
      const other = await createTenant(app);
      await api(app, { token: other.token })
        .post('/check_tracking_numbers', { ids: [s.id] })
        .expect(404);
      await api(app, { token: other.token })
        .post('/check_tracking_numbers', {
          workspaceId: tenant.workspaceId,
          trackingNumbers: [s.trackingNumber],
        })
        .expect(404);
      await api(app)
        .post('/check_tracking_numbers', { ids: [s.id] })
        .expect(401);
      await http()
        .post('/check_tracking_numbers', { ids: Array.from({ length: 101 }, () => s.id) })
        .expect(422);
    });
  });

  describe('POST /check_tracking_numbers_async', () => {
    it('answers at once and delivers the result as a notification to the caller', async () => {
      const a = await shipment('202');
      const b = await shipment('302');
      await untrack(a.id);
      await untrack(b.id);
      const res = await http()
        .post('/check_tracking_numbers_async', { ids: [a.id, b['@id']] })
        .expect(200);
      expect(res.body).toMatchObject({
        queued: true,
        shipments: [`/shipments/${a.id}`, `/shipments/${b.id}`],
      });
      let notifications: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 60 && notifications.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        notifications = (await http().get('/notifications').expect(200)).body['hydra:member'];
      }
      expect(notifications).toHaveLength(1);
      expect(notifications[0]).toMatchObject({
        tag: 'check_tracking_numbers',
        user: `/users/${tenant.userId}`,
        unread: true,
        data: [`/shipments/${a.id}`, `/shipments/${b.id}`],
        message: expect.stringContaining('Tracking checked for 2 of 2 shipments; 2 changed status'),
      });
      expect((await http().get(`/shipments/${a.id}`)).body.trackingStatus).toBe(
        'available_for_pickup',
      );
      expect((await http().get(`/shipments/${b.id}`)).body.trackingStatus).toBe('return_to_sender');
    });

    it('validates like the synchronous form', async () => {
      await http().post('/check_tracking_numbers_async', {}).expect(422);
      await http().post('/check_tracking_numbers_async', { ids: {} }).expect(400);
      const other = await createTenant(app);
      const s = await shipment('102');
      await api(app, { token: other.token })
        .post('/check_tracking_numbers_async', { ids: [s.id] })
        .expect(404);
    });
  });

  describe('POST /tracking/ingest', () => {
    const checkpoint = (id: string, date: string, status: string, extra = {}) => ({
      id,
      checkpointDate: date,
      status,
      info: `Event ${id}`,
      location: 'Berlin',
      countryIso2: 'de',
      ...extra,
    });

    it('adds pushed checkpoints idempotently and recomputes the shipment', async () => {
      const s = await shipment('403');
      expect(s.trackingStatus).toBe('no_info');
      const now = Date.now();
      const body = {
        shipment: s['@id'],
        checkpoints: [
          checkpoint('e1', new Date(now - 3 * 86_400_000).toISOString(), 'in_transit', {
            rel: 'origin',
          }),
          checkpoint('e2', new Date(now - 3_600_000).toISOString(), 'delivery_in_progress'),
        ],
      };
      const res = await http().post('/tracking/ingest', body).expect(200);
      expect(res.body).toMatchObject({
        '@id': s['@id'],
        trackingStatus: 'delivery_in_progress',
        daysInTransit: 3,
        originCountryIso2: 'DE',
      });
      const again = await http().post('/tracking/ingest', body).expect(200);
      expect(again.body.trackingStatus).toBe('delivery_in_progress');
      const list = await http().get(`/shipments/${s.id}/checkpoints`).expect(200);
      expect(list.body['hydra:totalItems']).toBe(2);
      expect(list.body['hydra:member'][0]).toMatchObject({
        status: 'delivery_in_progress',
        info: 'Event e2',
        countryIso2: 'DE',
        carrier: 'tm-test',
      });

      // By tracking number and workspace; an updated checkpoint replaces its earlier version.
      const delivered = await http()
        .post('/tracking/ingest', {
          trackingNumber: s.trackingNumber,
          workspace: tenant.workspaceId,
          checkpoints: [checkpoint('e2', new Date(now - 60_000).toISOString(), 'delivered')],
        })
        .expect(200);
      expect(delivered.body.trackingStatus).toBe('delivered');
      const after = await http().get(`/shipments/${s.id}/checkpoints`).expect(200);
      expect(after.body['hydra:totalItems']).toBe(2);
      const events = await db.query(
        `SELECT payload->>'trackingStatus' AS status FROM outbox_event WHERE aggregate_id = $1 AND type = 'shipment.status_changed' ORDER BY created_at`,
        [s.id],
      );
      expect(events.map((e: { status: string }) => e.status)).toEqual([
        'no_info',
        'delivery_in_progress',
        'delivered',
      ]);
    });

    it('rejects bad input clearly and hides other tenants', async () => {
      const s = await shipment('403');
      const ok = checkpoint('x1', new Date().toISOString(), 'in_transit');
      await http().post('/tracking/ingest', { shipment: s.id, checkpoints: 'x' }).expect(400);
      await http()
        .post('/tracking/ingest', { shipment: 5, checkpoints: [ok] })
        .expect(400);
      await http()
        .post('/tracking/ingest', { shipment: s.id, checkpoints: [{ ...ok, info: 7 }] })
        .expect(400);
      const invalid = await http()
        .post('/tracking/ingest', {
          shipment: s.id,
          checkpoints: [
            ok,
            { id: '', checkpointDate: 'yesterday', status: 'lost', countryIso2: 'ZZ', rel: 'x' },
          ],
        })
        .expect(422);
      expect(invalid.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual([
        'checkpoints[1].id',
        'checkpoints[1].checkpointDate',
        'checkpoints[1].status',
        'checkpoints[1].countryIso2',
        'checkpoints[1].rel',
      ]);
      await http().post('/tracking/ingest', { shipment: s.id, checkpoints: [] }).expect(422);
      await http()
        .post('/tracking/ingest', { checkpoints: [ok] })
        .expect(422);
      await http()
        .post('/tracking/ingest', { trackingNumber: s.trackingNumber, checkpoints: [ok] })
        .expect(422);
      await http()
        .post('/tracking/ingest', {
          trackingNumber: 'UNKNOWN1',
          workspace: tenant.workspaceId,
          checkpoints: [ok],
        })
        .expect(404);
      const other = await createTenant(app);
      await api(app, { token: other.token })
        .post('/tracking/ingest', { shipment: s.id, checkpoints: [ok] })
        .expect(404);
      await api(app, { token: other.token })
        .post('/tracking/ingest', {
          trackingNumber: s.trackingNumber,
          workspace: tenant.workspaceId,
          checkpoints: [ok],
        })
        .expect(404);
      await api(app)
        .post('/tracking/ingest', { shipment: s.id, checkpoints: [ok] })
        .expect(401);
      // Nothing was stored by the refused requests.
      const [row] = await db.query(
        `SELECT count(*)::int AS n FROM tracking_checkpoint WHERE shipment_id = $1`,
        [s.id],
      );
      expect(row.n).toBe(0);
    });
  });
});
