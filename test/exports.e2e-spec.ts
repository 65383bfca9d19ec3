import type { NestExpressApplication } from '@nestjs/platform-express';
import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ExportsService } from '../src/exports/exports.service';
import { FileStorage } from '../src/media/file-storage';
import { MediaService } from '../src/media/media.service';
import { createOrder, createShipment, testTrackingNumber } from './factories/commerce.factory';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('exports: POST /export, GET /exports/{id}, GET /exports/{id}/download', () => {
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

  async function waitForExport(id: string, token = tenant.token): Promise<Record<string, any>> {
    for (let i = 0; i < 100; i++) {
      const record = (await api(app, { token }).get(`/exports/${id}`).expect(200)).body;
      if (record.status === 'done' || record.status === 'failed') return record;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('export did not finish');
  }

  async function download(id: string) {
    const res = await http()
      .get(`/exports/${id}/download`)
      // Uncoded, so Content-Length is the file's size (a coded answer has none).
      .set('Accept-Encoding', 'identity')
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (c: string) => (text += c));
        response.on('end', () => done(null, text));
      })
      .expect(200);
    return {
      res,
      rows: parse(res.body as string, { columns: true }) as Array<Record<string, string>>,
    };
  }

  it('exports every matching shipment as CSV with the collection’s filters and columns', async () => {
    const second = await addWorkspace(app, tenant);
    const numbers: string[] = [];
    for (let i = 0; i < 35; i++) {
      const s = await createShipment(app, tenant, {
        trackingNumber: testTrackingNumber('200'),
        email: i % 2 ? 'odd@example.com' : 'even@example.com',
        orderNumbers: i === 0 ? ['A-1', 'A-2'] : [],
        address: { city: 'Springfield, "Main"' },
      });
      if (i % 2 === 0) numbers.push(s.trackingNumber);
    }
    await http()
      .post('/shipments', {
        workspace: `/workspaces/${second}`,
        trackingNumber: testTrackingNumber('200'),
        email: 'even@example.com',
      })
      .expect(201);
    await createShipment(app, other, { email: 'even@example.com' });

    const res = await http()
      .post('/export', {
        entity: 'shipments',
        workspaceId: `/workspaces/${tenant.workspaceId}`,
        filters: { email: 'even@example.com', order: { createdAt: 'asc' }, page: 2 },
      })
      .expect(200);
    expect(res.body).toMatchObject({
      '@context': '/contexts/Export',
      '@type': 'Export',
      entity: 'shipments',
      format: 'csv',
      workspace: `/workspaces/${tenant.workspaceId}`,
      filters: { email: 'even@example.com', 'order[createdAt]': 'asc' },
      link: null,
      user: `/users/${tenant.userId}`,
    });
    expect(['queued', 'running', 'done']).toContain(res.body.status);
    expect(typeof res.body.message).toBe('string');

    const done = await waitForExport(res.body.id);
    expect(done).toMatchObject({
      status: 'done',
      rowCount: 18,
      link: `/exports/${res.body.id}/download`,
      message: 'The export is ready to download.',
      error: null,
    });
    expect(done.fileName).toMatch(/^shipments-\d{8}T\d{6}Z\.csv$/);

    const { res: file, rows } = await download(res.body.id);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${done.fileName}"`);
    expect(Number(file.headers['content-length'])).toBe(done.size);
    // Every row (more than one page of 30), in the requested order, with the CSV columns of
    // GET /shipments (arrays as key.0, key.1; nested objects with dots).
    expect(rows.map((r) => r.trackingNumber)).toEqual(numbers);
    expect(Object.keys(rows[0])).toEqual(
      expect.arrayContaining(['orderNumbers.0', 'orderNumbers.1', 'address.city']),
    );
    expect(rows[0]['orderNumbers.1']).toBe('A-2');
    expect(rows[1]['address.city']).toBe('Springfield, "Main"');
    const page = await api(app, { token: tenant.token, accept: 'text/csv' })
      .get(
        `/workspaces/${tenant.workspaceId}/shipments?email=even@example.com&order[createdAt]=asc&itemsPerPage=500`,
      )
      .expect(200);
    expect((file.body as string).split('\n')[0]).toBe(page.text.split('\n')[0]);

    const notifications = (await http().get('/notifications?tag=export').expect(200)).body[
      'hydra:member'
    ];
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      message: 'Your export of 18 shipments is ready to download.',
      data: [`/exports/${res.body.id}`],
    });
  });

  it('exports orders of all the caller’s workspaces, and only theirs', async () => {
    const second = await addWorkspace(app, tenant);
    const mine = await createOrder(app, tenant);
    const there = (
      await http()
        .post('/orders', {
          workspace: `/workspaces/${second}`,
          orderNumber: `ON-${randomUUID()}`,
          orderType: 'customer',
        })
        .expect(201)
    ).body;
    const theirs = await createOrder(app, other);
    const res = await http()
      .json()
      .post('/export', { entity: 'orders', params: ['order[orderNumber]=asc'] })
      .expect(200);
    expect(res.body['@id']).toBeUndefined();
    expect(res.body.workspace).toBeNull();
    const done = await waitForExport(res.body.id);
    expect(done.rowCount).toBe(2);
    const { rows } = await download(res.body.id);
    expect(rows.map((r) => r.id).sort()).toEqual([mine.id, there.id].sort());
    expect(JSON.stringify(rows)).not.toContain(theirs.id);
  });

  it('keeps exports to their owner: 404 for others, 409 until ready', async () => {
    const res = await http().post('/export', { entity: 'shipments' }).expect(200);
    const id = res.body.id;
    const stranger = api(app, { token: other.token });
    await stranger.get(`/exports/${id}`).expect(404);
    await stranger.get(`/exports/${id}/download`).expect(404);
    expect((await stranger.get('/exports').expect(200)).body['hydra:totalItems']).toBe(0);
    await http().get(`/exports/${randomUUID()}/download`).expect(404);
    await http().get(`/exports/not-an-id/download`).expect(404);

    // Not ready yet: 409 with the reason.
    const [queued] = await db.query(
      `INSERT INTO export (user_id, workspace_id, entity) VALUES ($1, $2, 'orders') RETURNING id`,
      [tenant.userId, tenant.workspaceId],
    );
    const early = await http().get(`/exports/${queued.id}/download`).expect(409);
    expect(early.body['hydra:description']).toContain('queued');
    const [failed] = await db.query(
      `INSERT INTO export (user_id, workspace_id, entity, status) VALUES ($1, $2, 'orders', 'failed') RETURNING id`,
      [tenant.userId, tenant.workspaceId],
    );
    const broken = await http().get(`/exports/${failed.id}/download`).expect(409);
    expect(broken.body['hydra:description']).toBe('The export failed; it has no file.');
    await waitForExport(id);
  });

  it('fails, and says so, when the workspace is no longer the caller’s', async () => {
    const [row] = await db.query(
      `INSERT INTO export (user_id, workspace_id, entity) VALUES ($1, $2, 'shipments') RETURNING id`,
      [tenant.userId, other.workspaceId],
    );
    await app.get(ExportsService).run(row.id);
    const record = (await http().get(`/exports/${row.id}`).expect(200)).body;
    expect(record).toMatchObject({ status: 'failed', link: null, message: 'The export failed.' });
    expect(record.error).toMatch(/no longer accessible/);
    // Its workspace is not the caller's: no file, and nothing said about it.
    await http().get(`/exports/${row.id}/download`).expect(404);
    const notes = (await http().get('/notifications?tag=export').expect(200)).body['hydra:member'];
    expect(notes[0].message).toMatch(/failed/);
  });

  it('removes the file when the export goes', async () => {
    const res = await http().post('/export', { entity: 'shipments' }).expect(200);
    await waitForExport(res.body.id);
    const [{ storage_key: key }] = await db.query(`SELECT storage_key FROM export WHERE id = $1`, [
      res.body.id,
    ]);
    const storage = app.get(FileStorage);
    expect(await storage.open(key)).not.toBeNull();
    await db.query(`DELETE FROM "user" WHERE id = $1`, [tenant.userId]);
    while ((await app.get(MediaService).sweepOrphanFiles()) > 0);
    expect(await storage.open(key)).toBeNull();
  });

  it('rejects bad requests', async () => {
    const post = (body: unknown) => http().post('/export', body);
    expect((await post({}).expect(422)).body.violations[0].propertyPath).toBe('entity');
    await post({ entity: 'users' }).expect(422);
    await post({ entity: 'shipments', format: 'xlsx' }).expect(422);
    await post({ entity: 'shipments', filters: 3 }).expect(400);
    await post({ entity: 'shipments', params: 'a=b' }).expect(400);
    await post({ entity: 5 }).expect(400);
    await post({ entity: 'shipments', workspaceId: other.workspaceId }).expect(404);
    await post({ entity: 'shipments', workspace: `/workspaces/${randomUUID()}` }).expect(404);
    await api(app, { token: tenant.token, contentType: 'text/plain' })
      .post('/export', 'x')
      .expect(415);
    await api(app).post('/export', { entity: 'shipments' }).expect(401);
    await api(app).get(`/exports/${randomUUID()}/download`).expect(401);
    expect(
      (
        await db.query(`SELECT count(*)::int AS n FROM export WHERE user_id = $1`, [tenant.userId])
      )[0].n,
    ).toBe(0);
  });
});
