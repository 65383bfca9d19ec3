import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { BatchJobs } from '../src/batches/batch-jobs';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
  createStatus,
} from './factories/commerce.factory';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('batches: change_status_batch(_async), delete_records_batch', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    other = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const http = () => api(app, { token: tenant.token });
  const statusOf = async (table: string, column: string, id: string) =>
    (await db.query(`SELECT ${column} AS s FROM ${table} WHERE id = $1`, [id]))[0]?.s ?? null;
  const exists = async (table: string, id: string) =>
    (await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).length > 0;

  describe('POST /change_status_batch', () => {
    it('assigns a status given by IRI and says what changed', async () => {
      const packed = await createStatus(app, tenant, { code: 'packed', title: 'Packed' });
      const a = await createShipment(app, tenant);
      const b = await createShipment(app, tenant);
      const c = await createShipment(app, tenant, { shipmentStatus: { code: 'packed' } });
      const res = await http()
        .post('/change_status_batch', {
          entity: 'shipments',
          ids: [a.id, b['@id'], c.id, a.id],
          statusId: packed['@id'],
        })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
      expect(res.body).toEqual({
        entity: 'shipments',
        count: 2,
        ids: [a.id, b.id],
        unchangedIds: [c.id],
        statuses: [`/statuses/${packed.id}`],
      });
      const read = await http().get(`/shipments/${b.id}`).expect(200);
      expect(read.body.shipmentStatus).toMatchObject({ id: packed.id, code: 'packed' });
    });

    it('assigns a status by code in each record’s workspace, to orders too', async () => {
      const second = await addWorkspace(app, tenant);
      const first = await createOrder(app, tenant, { orderStatus: { code: 'paid' } });
      await createStatus(app, tenant, { entity: 'orders', code: 'shipped' });
      const elsewhere = (
        await http()
          .post('/orders', {
            workspace: `/workspaces/${second}`,
            orderNumber: `ON-${randomUUID()}`,
            orderType: 'customer',
          })
          .expect(201)
      ).body;
      await http()
        .post('/statuses', {
          workspace: `/workspaces/${second}`,
          entity: 'orders',
          code: 'shipped',
        })
        .expect(201);
      const res = await http()
        .json()
        .post('/change_status_batch', {
          entity: 'orders',
          ids: [first.id, elsewhere.id],
          status: 'shipped',
        })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.count).toBe(2);
      expect(res.body.statuses).toHaveLength(2);
      const codes = await db.query(
        `SELECT o.id, s.code, s.workspace_id FROM "order" o JOIN status s ON s.id = o.order_status_id
          WHERE o.id = ANY($1::uuid[]) ORDER BY o.workspace_id = $2 DESC`,
        [[first.id, elsewhere.id], tenant.workspaceId],
      );
      expect(codes.map((r: { code: string }) => r.code)).toEqual(['shipped', 'shipped']);
      expect(codes[0].workspace_id).toBe(tenant.workspaceId);
      expect(codes[1].workspace_id).toBe(second);
    });

    it('changes nothing when any id is foreign or missing (404)', async () => {
      await createStatus(app, tenant, { code: 'held' });
      const mine = await createShipment(app, tenant);
      const theirs = await createShipment(app, other);
      for (const ids of [
        [mine.id, theirs.id],
        [mine.id, randomUUID()],
        [mine.id, 'not-an-id'],
        [mine.id, `/orders/${mine.id}`],
      ]) {
        const res = await http()
          .post('/change_status_batch', { entity: 'shipments', ids, status: 'held' })
          .expect(404);
        expect(res.body['hydra:description']).toBe('Not Found');
      }
      expect(await statusOf('shipment', 'shipment_status_id', mine.id)).toBeNull();
      expect(await statusOf('shipment', 'shipment_status_id', theirs.id)).toBeNull();
    });

    it('changes nothing when a record or the status does not fit (422)', async () => {
      const second = await addWorkspace(app, tenant);
      const mine = await createShipment(app, tenant);
      const there = (
        await http()
          .post('/shipments', { workspace: `/workspaces/${second}`, trackingNumber: null })
          .expect(201)
      ).body;
      const held = await createStatus(app, tenant, { code: 'held' });
      const orderStatus = await createStatus(app, tenant, { entity: 'orders', code: 'held' });
      const foreign = await createStatus(app, other, { code: 'held' });

      // Status given by IRI must be of the workspace of every record.
      let res = await http()
        .post('/change_status_batch', {
          entity: 'shipments',
          ids: [mine.id, there.id],
          statusId: held['@id'],
        })
        .expect(422);
      expect(res.body.violations[0].propertyPath).toBe('statusId');
      // A code must exist in every workspace involved.
      res = await http()
        .post('/change_status_batch', {
          entity: 'shipments',
          ids: [mine.id, there.id],
          status: 'held',
        })
        .expect(422);
      expect(res.body.violations[0].message).toContain(`/workspaces/${second}`);
      // Records outside the workspace given.
      res = await http()
        .post('/change_status_batch', {
          entity: 'shipments',
          ids: [mine.id, there.id],
          status: 'held',
          workspaceId: tenant.workspaceId,
        })
        .expect(422);
      expect(res.body.violations).toEqual([expect.objectContaining({ propertyPath: 'ids[1]' })]);
      // Another entity's status, another tenant's status, an unknown code.
      for (const body of [
        { statusId: orderStatus.id },
        { statusId: foreign['@id'] },
        { status: 'nope' },
        { statusId: 'held' },
      ]) {
        await http()
          .post('/change_status_batch', { entity: 'shipments', ids: [mine.id], ...body })
          .expect(422);
      }
      expect(await statusOf('shipment', 'shipment_status_id', mine.id)).toBeNull();
      expect(await statusOf('shipment', 'shipment_status_id', there.id)).toBeNull();
    });

    it('rejects malformed requests: 400 for types, 422 for values, 415, 401', async () => {
      const s = await createShipment(app, tenant);
      const post = (body: unknown) => http().post('/change_status_batch', body);
      await post({ entity: 'shipments', ids: s.id, status: 'x' }).expect(400);
      await post({ entity: 'shipments', ids: [1], status: 'x' }).expect(400);
      await post({ entity: 3, ids: [s.id], status: 'x' }).expect(400);
      await post({ entity: 'shipments', ids: [s.id], status: 5 }).expect(400);
      expect(
        (await post({ ids: [s.id], status: 'x' }).expect(422)).body.violations[0],
      ).toMatchObject({ propertyPath: 'entity' });
      await post({ entity: 'order_items', ids: [s.id], status: 'x' }).expect(422);
      await post({ entity: 'shipments', ids: [], status: 'x' }).expect(422);
      await post({ entity: 'shipments', status: 'x' }).expect(422);
      await post({ entity: 'shipments', ids: [s.id] }).expect(422);
      const many = Array.from({ length: 1001 }, () => randomUUID());
      await post({ entity: 'shipments', ids: many, status: 'x' }).expect(422);
      await post({
        entity: 'shipments',
        ids: [s.id],
        status: 'x',
        workspaceId: other.workspaceId,
      }).expect(404);
      await api(app, { token: tenant.token, contentType: 'text/plain' })
        .post('/change_status_batch', 'x')
        .expect(415);
      await api(app).post('/change_status_batch', {}).expect(401);
    });
  });

  describe('POST /change_status_batch_async', () => {
    async function waitForJob(id: string): Promise<Record<string, any>> {
      for (let i = 0; i < 100; i++) {
        const job = (await http().get(`/batch_jobs/${id}`).expect(200)).body;
        if (job.status === 'done' || job.status === 'failed') return job;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('batch job did not finish');
    }

    it('queues the change, records its outcome and notifies the caller', async () => {
      const done = await createStatus(app, tenant, { code: 'done' });
      const a = await createShipment(app, tenant);
      const b = await createShipment(app, tenant);
      const res = await http()
        .post('/change_status_batch_async', {
          entity: 'shipments',
          ids: [a.id, b.id],
          statusId: done.id,
        })
        .expect(200);
      expect(res.body).toMatchObject({
        '@context': '/contexts/BatchJob',
        '@type': 'BatchJob',
        operation: 'change_status',
        entity: 'shipments',
        totalCount: 2,
        targetStatus: `/statuses/${done.id}`,
        user: `/users/${tenant.userId}`,
      });
      expect(['queued', 'running', 'done']).toContain(res.body.status);
      const job = await waitForJob(res.body.id);
      expect(job).toMatchObject({
        status: 'done',
        changedCount: 2,
        error: null,
        result: { count: 2, ids: [a.id, b.id], unchangedIds: [] },
      });
      expect(job.finishedAt).toBeTruthy();
      expect(await statusOf('shipment', 'shipment_status_id', a.id)).toBe(done.id);

      const notifications = (await http().get('/notifications?tag=change_status_batch').expect(200))
        .body['hydra:member'];
      expect(notifications).toHaveLength(1);
      expect(notifications[0].message).toContain('2 of 2 shipments');
      expect(notifications[0].data).toEqual([
        `/batch_jobs/${job.id}`,
        `/shipments/${a.id}`,
        `/shipments/${b.id}`,
      ]);

      // The caller's jobs only.
      const list = (await http().get('/batch_jobs').expect(200)).body;
      expect(list['hydra:member'].map((j: { id: string }) => j.id)).toEqual([job.id]);
      await api(app, { token: other.token }).get(`/batch_jobs/${job.id}`).expect(404);
      expect(
        (await api(app, { token: other.token }).get('/batch_jobs')).body['hydra:totalItems'],
      ).toBe(0);
    });

    it('checks the request at once, like the synchronous form', async () => {
      const s = await createShipment(app, tenant);
      const theirs = await createShipment(app, other);
      await createStatus(app, tenant, { code: 'x' });
      await http()
        .post('/change_status_batch_async', {
          entity: 'shipments',
          ids: [s.id, theirs.id],
          status: 'x',
        })
        .expect(404);
      await http()
        .post('/change_status_batch_async', { entity: 'shipments', ids: [s.id], status: 'nope' })
        .expect(422);
      await http()
        .post('/change_status_batch_async', { entity: 'shipments', ids: 'x' })
        .expect(400);
      expect(
        (
          await db.query(`SELECT count(*)::int AS n FROM batch_job WHERE user_id = $1`, [
            tenant.userId,
          ])
        )[0].n,
      ).toBe(0);
    });

    it('fails as a whole, and says so, when the records changed meanwhile', async () => {
      const status = await createStatus(app, tenant, { code: 'gone' });
      const s = await createShipment(app, tenant);
      const [row] = await db.query(
        `INSERT INTO batch_job (user_id, operation, entity, target_status_id, record_ids, total_count)
         VALUES ($1, 'change_status', 'shipments', $2, $3::uuid[], 2) RETURNING id`,
        [tenant.userId, status.id, [s.id, randomUUID()]],
      );
      await app.get(BatchJobs).run(row.id);
      const job = (await http().get(`/batch_jobs/${row.id}`).expect(200)).body;
      expect(job).toMatchObject({ status: 'failed', changedCount: 0, result: null });
      expect(job.error).toMatch(/no longer exist/);
      expect(await statusOf('shipment', 'shipment_status_id', s.id)).toBeNull();
      const notes = (await http().get('/notifications?tag=change_status_batch').expect(200)).body[
        'hydra:member'
      ];
      expect(notes[0].message).toMatch(/failed; nothing was changed/);
      // Running it again does nothing more.
      await app.get(BatchJobs).run(row.id);
      expect(
        (await http().get('/notifications?tag=change_status_batch').expect(200)).body[
          'hydra:totalItems'
        ],
      ).toBe(1);
    });
  });

  describe('POST /delete_records_batch', () => {
    it('deletes shipments with their items and recomputes order fulfilment', async () => {
      const order = await createOrder(app, tenant);
      const item = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
      const s1 = await createShipment(app, tenant);
      const s2 = await createShipment(app, tenant);
      const si = await createShipmentItem(app, tenant, {
        shipment: s1['@id'],
        orderItem: item['@id'],
        qty: 2,
      });
      expect((await http().get(order['@id'])).body.fulfillmentStatus).toBe('fulfilled');
      const res = await http()
        .post('/delete_records_batch', { entity: 'shipments', ids: [s1['@id'], s2.id] })
        .expect(200);
      expect(res.body).toEqual({ entity: 'shipments', count: 2, ids: [s1.id, s2.id] });
      await http().get(s1['@id']).expect(404);
      await http().get(s2['@id']).expect(404);
      expect(await exists('shipment_item', si.id)).toBe(false);
      expect((await http().get(order['@id'])).body.fulfillmentStatus).toBe('not_fulfilled');
    });

    it('updates an order once for all its shipments the batch deletes', async () => {
      const order = await createOrder(app, tenant);
      const s1 = await createShipment(app, tenant, { orders: [order['@id']] });
      const s2 = await createShipment(app, tenant, { orders: [order['@id']] });
      const before = await db.query(
        `SELECT count(*)::int AS n FROM outbox_event WHERE aggregate_id = $1`,
        [order.id],
      );
      await http()
        .post('/delete_records_batch', { entity: 'shipments', ids: [s1.id, s2.id] })
        .expect(200);
      const rows: Array<{ type: string; payload: Record<string, any> }> = await db.query(
        `SELECT type, payload FROM outbox_event WHERE aggregate_id = $1 ORDER BY created_at OFFSET $2`,
        [order.id, before[0].n],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        type: 'order.updated',
        payload: { cause: 'shipment', shipments: [] },
      });
      expect(rows[0].payload.changedFields).toContain('shipments');
      const deleted = await db.query(
        `SELECT aggregate_id FROM outbox_event WHERE type = 'shipment.deleted' AND aggregate_id = ANY($1)`,
        [[s1.id, s2.id]],
      );
      expect(deleted).toHaveLength(2);
    });

    it('deletes orders, order items and shipment items through their rules', async () => {
      const order = await createOrder(app, tenant);
      const keep = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
      const drop = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
      const s = await createShipment(app, tenant);
      const shipped = await createShipmentItem(app, tenant, {
        shipment: s['@id'],
        orderItem: keep['@id'],
        qty: 1,
      });
      const onDrop = await createShipmentItem(app, tenant, {
        shipment: s['@id'],
        orderItem: drop['@id'],
        qty: 1,
      });
      expect((await http().get(order['@id'])).body.fulfillmentStatus).toBe('fulfilled');

      await http()
        .post('/delete_records_batch', { entity: 'shipment_items', ids: [shipped.id] })
        .expect(200);
      expect((await http().get(order['@id'])).body.fulfillmentStatus).toBe('partial');

      await http()
        .post('/delete_records_batch', { entity: 'order_items', ids: [drop['@id']] })
        .expect(200);
      expect(await exists('shipment_item', onDrop.id)).toBe(false);
      expect((await http().get(order['@id'])).body.fulfillmentStatus).toBe('not_fulfilled');

      const other1 = await createOrder(app, tenant);
      await http()
        .post('/delete_records_batch', { entity: 'orders', ids: [order.id, other1['@id']] })
        .expect(200);
      await http().get(order['@id']).expect(404);
      await http().get(other1['@id']).expect(404);
      expect(await exists('order_item', keep.id)).toBe(false);
    });

    it('deletes nothing when any id is foreign, missing or outside the workspace given', async () => {
      const second = await addWorkspace(app, tenant);
      const mine = await createShipment(app, tenant);
      const there = (
        await http()
          .post('/shipments', { workspace: `/workspaces/${second}` })
          .expect(201)
      ).body;
      const theirs = await createShipment(app, other);
      await http()
        .post('/delete_records_batch', { entity: 'shipments', ids: [mine.id, theirs.id] })
        .expect(404);
      await http()
        .post('/delete_records_batch', { entity: 'shipments', ids: [mine.id, randomUUID()] })
        .expect(404);
      await http()
        .post('/delete_records_batch', { entity: 'orders', ids: [mine.id] })
        .expect(404);
      const res = await http()
        .post('/delete_records_batch', {
          entity: 'shipments',
          ids: [mine.id, there.id],
          workspaceId: `/workspaces/${tenant.workspaceId}`,
        })
        .expect(422);
      expect(res.body.violations[0].propertyPath).toBe('ids[1]');
      for (const id of [mine.id, there.id, theirs.id])
        expect(await exists('shipment', id)).toBe(true);
      await http()
        .post('/delete_records_batch', { entity: 'statuses', ids: [mine.id] })
        .expect(422);
      await http().post('/delete_records_batch', { entity: 'shipments', ids: [] }).expect(422);
      await http()
        .post('/delete_records_batch', { entity: 'shipments', ids: [{}] })
        .expect(400);
    });
  });
});
