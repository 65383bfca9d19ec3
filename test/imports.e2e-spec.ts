import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ImportsService } from '../src/imports/imports.service';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import { createShipment, testOrderNumber, testTrackingNumber } from './factories/commerce.factory';

describe('imports of shipments and orders', () => {
  let app: NestExpressApplication;
  let a: Tenant;
  let b: Tenant;
  const as = (t: Tenant) => api(app, { token: t.token });
  const multipart = (t: Tenant, path: string, csv: string, fields: Record<string, string>) => {
    const req = request(app.getHttpServer())
      .post(path)
      .set('Authorization', `Bearer ${t.token}`)
      .set('Accept', 'application/ld+json');
    for (const [k, v] of Object.entries(fields)) req.field(k, v);
    return req.attach('file', Buffer.from(csv), 'upload.csv');
  };

  /** GET /imports/{id} until the job finished it. */
  async function finished(t: Tenant, iri: string): Promise<Record<string, any>> {
    for (let i = 0; i < 150; i++) {
      const res = await as(t).get(iri).expect(200);
      if (['completed', 'failed'].includes(res.body.status)) return res.body;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`import ${iri} did not finish`);
  }

  beforeAll(async () => {
    app = await createTestApp();
    a = await createTenant(app);
    b = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  describe('POST /imports/pre-upload', () => {
    it('reads an uploaded file: columns, preview, suggested mapping, nothing stored', async () => {
      const csv = [
        'Tracking Number;Carrier;Order #;Email;City;Notes',
        'TM200AAA1TM;tm-test;ON-1;a@example.test;Berlin;x',
        'TM200AAA2TM;;ON-2, ON-3;;Paris;',
      ].join('\n');
      const res = await multipart(a, '/imports/pre-upload', csv, {
        workspace: `/workspaces/${a.workspaceId}`,
      }).expect(200);
      expect(res.body).toMatchObject({
        '@type': 'ImportPreUpload',
        workspace: `/workspaces/${a.workspaceId}`,
        entity: 'shipments',
        fileOriginalName: 'upload.csv',
        fileMimeType: 'text/csv',
        fileSize: Buffer.byteLength(csv),
        delimiter: ';',
        columns: ['Tracking Number', 'Carrier', 'Order #', 'Email', 'City', 'Notes'],
        rowCount: 2,
        suggestedMapping: {
          'Tracking Number': 'trackingNumber',
          Carrier: 'originCarrier',
          'Order #': 'orderNumbers',
          Email: 'email',
          City: 'address.city',
          Notes: null,
        },
      });
      expect(res.body.preview[1]).toEqual({
        line: 3,
        values: {
          'Tracking Number': 'TM200AAA2TM',
          Carrier: '',
          'Order #': 'ON-2, ON-3',
          Email: '',
          City: 'Paris',
          Notes: '',
        },
      });
      expect(res.body.fields).toContainEqual({ name: 'trackingNumber', required: true });
      const count = await app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM import WHERE workspace_id = $1`, [a.workspaceId]);
      expect(count[0].n).toBe(0);
    });

    it('takes CSV text as `content`, guesses orders, and honours an explicit entity', async () => {
      const content = 'Order Number,Total,Billing City\nON-9,19.90,Rome\n';
      const orders = await as(a)
        .post('/imports/pre-upload', { workspace: a.workspaceId, content })
        .expect(200);
      expect(orders.body.entity).toBe('orders');
      expect(orders.body.suggestedMapping).toEqual({
        'Order Number': 'orderNumber',
        Total: 'total',
        'Billing City': 'billingAddress.city',
      });
      const forced = await as(a)
        .post('/imports/pre-upload', { workspace: a.workspaceId, content, entity: 'shipments' })
        .expect(200);
      expect(forced.body.entity).toBe('shipments');
    });

    it('refuses bad requests with 4xx', async () => {
      const content = 'tracking\nX\n';
      const noWs = await as(a).post('/imports/pre-upload', { content }).expect(422);
      expect(noWs.body.violations[0].propertyPath).toBe('workspace');
      const foreign = await as(a)
        .post('/imports/pre-upload', { workspace: `/workspaces/${b.workspaceId}`, content })
        .expect(422);
      expect(foreign.body.violations[0].message).toMatch(/Item not found/);
      const noFile = await as(a)
        .post('/imports/pre-upload', { workspace: a.workspaceId })
        .expect(422);
      expect(noFile.body.violations[0].propertyPath).toBe('content');
      const badCsv = await multipart(a, '/imports/pre-upload', 'a,b\n1,2,3\n', {
        workspace: a.workspaceId,
      }).expect(422);
      expect(badCsv.body.violations[0]).toMatchObject({
        propertyPath: 'file',
        message: 'Line 2 has 3 cells, the header 2.',
      });
      await as(a)
        .post('/imports/pre-upload', { workspace: a.workspaceId, content, entity: 'notes' })
        .expect(422);
      await as(a).post('/imports/pre-upload', { workspace: 5, content }).expect(400);
      await api(app).post('/imports/pre-upload', { workspace: a.workspaceId, content }).expect(401);
    });
  });

  describe('POST /imports and GET /imports/{id}', () => {
    it('imports shipments through the shipment rules, recording refused rows', async () => {
      const t = await createTenant(app);
      const taken = testTrackingNumber('102');
      await createShipment(app, t, { trackingNumber: taken });
      const good1 = testTrackingNumber('200');
      const good2 = testTrackingNumber('102');
      const orderNumber = testOrderNumber();
      const csv = [
        'tracking_number,email,order_number,city,country_code,status',
        `${good1},buyer@example.test,${orderNumber},Berlin,DE,packed`,
        `${taken},,,,,`,
        `${testTrackingNumber('200')},not-an-email,,,,`,
        `${good2},,,,,`,
        ',,,,,',
        ',someone@example.test,,,,',
      ].join('\n');
      const res = await multipart(t, '/imports', csv, {
        workspace: `/workspaces/${t.workspaceId}`,
      }).expect(201);
      expect(res.headers.location).toBe(res.body['@id']);
      expect(res.body).toMatchObject({
        '@context': '/contexts/Import',
        '@type': 'Import',
        user: `/users/${t.userId}`,
        workspace: `/workspaces/${t.workspaceId}`,
        entity: 'shipments',
        fileOriginalName: 'upload.csv',
        fileMimeType: 'text/csv',
        totalRows: 5,
        mapping: {
          tracking_number: 'trackingNumber',
          email: 'email',
          order_number: 'orderNumbers',
          city: 'address.city',
          country_code: 'address.countryIso2',
          status: 'shipmentStatus',
        },
      });
      expect(['pending', 'processing', 'completed']).toContain(res.body.status);
      expect(res.body.content).toBeUndefined();

      const done = await finished(t, res.body['@id']);
      expect(done).toMatchObject({
        status: 'completed',
        totalRows: 5,
        processedRows: 5,
        createdCount: 2,
        failedCount: 3,
        progress: 100,
      });
      expect(done.startedAt).toEqual(expect.any(String));
      expect(done.finishedAt).toEqual(expect.any(String));
      expect(done.errors).toEqual([
        {
          line: 3,
          message:
            'trackingNumber: It seems that you are trying to add the same tracking number to two different shipments.',
        },
        { line: 4, message: 'email: This value is not a valid email address.' },
        { line: 7, message: 'trackingNumber: This value should not be blank.' },
      ]);

      const shipment = await as(t).get(`/shipments?trackingNumber=${good1}`).expect(200);
      expect(shipment.body['hydra:member'][0]).toMatchObject({
        trackingNumber: good1,
        email: 'buyer@example.test',
        orderNumbers: [orderNumber],
        originCarrier: 'tm-test',
        trackingStatus: 'delivered',
        address: expect.objectContaining({ city: 'Berlin', countryIso2: 'DE' }),
        shipmentStatus: expect.objectContaining({ code: 'packed' }),
      });
      // The file's text is dropped once finished; the user is told.
      const [row] = await app
        .get(DataSource)
        .query(`SELECT content FROM import WHERE id = $1`, [done.id]);
      expect(row.content).toBeNull();
      const notes = await as(t).get(`/users/${t.userId}/notifications`).expect(200);
      expect(
        notes.body['hydra:member'].map((n: { message: string }) => n.message).join('\n'),
      ).toContain('Import of upload.csv finished: 2 shipments created, 3 rows refused.');

      await as(b).get(res.body['@id']).expect(404);
    });

    it('imports orders with a mapping given as JSON in a multipart form', async () => {
      const t = await createTenant(app);
      const number = testOrderNumber();
      const csv = ['No;Kind;Sum;Ship to;State', `${number};vendor;19.90;Lyon;new`].join('\n');
      const res = await multipart(t, '/imports', csv, {
        workspace: `/workspaces/${t.workspaceId}`,
        entity: 'orders',
        mapping: JSON.stringify({
          No: 'orderNumber',
          Kind: 'orderType',
          Sum: 'total',
          'Ship to': 'shippingAddress.city',
          State: 'orderStatus',
        }),
      }).expect(201);
      const done = await finished(t, res.body['@id']);
      expect(done).toMatchObject({ status: 'completed', createdCount: 1, failedCount: 0 });
      const order = await as(t).get(`/orders?orderNumber=${number}`).expect(200);
      expect(order.body['hydra:member'][0]).toMatchObject({
        orderNumber: number,
        orderType: 'vendor',
        total: '19.90',
        shippingAddress: expect.objectContaining({ city: 'Lyon' }),
        orderStatus: expect.objectContaining({ code: 'new' }),
      });
    });

    it('refuses mappings it cannot apply', async () => {
      const content = 'a,b\n1,2\n';
      const missing = await as(a)
        .post('/imports', { workspace: a.workspaceId, content, entity: 'shipments' })
        .expect(422);
      expect(missing.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'mapping',
          message: 'No column is mapped to "trackingNumber", which shipments need.',
        }),
      ]);
      const wrong = await as(a)
        .post('/imports', {
          workspace: a.workspaceId,
          content,
          mapping: { a: 'trackingNumber', b: 'colour', c: 'email' },
        })
        .expect(422);
      expect(wrong.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual([
        'mapping[b]',
        'mapping[c]',
      ]);
      await as(a)
        .post('/imports', { workspace: a.workspaceId, content, mapping: ['a'] })
        .expect(400);
      await multipart(a, '/imports', content, {
        workspace: a.workspaceId,
        mapping: '{nope',
      }).expect(400);
      await as(a).get('/imports/not-a-uuid').expect(404);
    });

    it('resumes after the last committed row, and never runs a finished import again', async () => {
      const t = await createTenant(app);
      const numbers = [
        testTrackingNumber('102'),
        testTrackingNumber('102'),
        testTrackingNumber('102'),
      ];
      const db = app.get(DataSource);
      // As a job that died after committing the first row leaves it.
      const [row] = await db.query(
        `INSERT INTO import (workspace_id, user_id, status, entity, file_mime_type, file_size,
                             mapping, content, total_rows, processed_rows, created_count, attempts)
         VALUES ($1, $2, 'processing', 'shipments', 'text/csv', 10, '{"tn":"trackingNumber"}',
                 $3, 3, 1, 1, 1) RETURNING id`,
        [t.workspaceId, t.userId, `tn\n${numbers.join('\n')}\n`],
      );
      const imports = app.get(ImportsService);
      await imports.run(row.id);
      const done = await as(t).get(`/imports/${row.id}`).expect(200);
      expect(done.body).toMatchObject({ status: 'completed', processedRows: 3, createdCount: 3 });
      const created = await as(t).get('/shipments?order%5BtrackingNumber%5D=asc').expect(200);
      expect(
        created.body['hydra:member'].map((s: { trackingNumber: string }) => s.trackingNumber),
      ).toEqual([numbers[1], numbers[2]].sort());
      await imports.run(row.id);
      const again = await as(t).get('/shipments').expect(200);
      expect(again.body['hydra:totalItems']).toBe(2);
    });

    it('refuses read-only members of the workspace with 403', async () => {
      const reader = await createTenant(app);
      const db = app.get(DataSource);
      await db.query(
        `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'member')`,
        [a.teamId, reader.userId],
      );
      await db.query(
        `INSERT INTO workspace_member (workspace_id, user_id, access_level) VALUES ($1, $2, 'read')`,
        [a.workspaceId, reader.userId],
      );
      const content = `tracking_number\n${testTrackingNumber('102')}\n`;
      for (const path of ['/imports/pre-upload', '/imports']) {
        const res = await as(reader).post(path, { workspace: a.workspaceId, content }).expect(403);
        expect(res.body['hydra:description']).toBe('Read-only access to this workspace.');
      }
    });

    it('fails an import whose user lost access to the workspace', async () => {
      const t = await createTenant(app);
      const other = await createTenant(app);
      const db = app.get(DataSource);
      const [row] = await db.query(
        `INSERT INTO import (workspace_id, user_id, entity, file_mime_type, file_size, mapping,
                             content, total_rows)
         VALUES ($1, $2, 'shipments', 'text/csv', 10, '{"tn":"trackingNumber"}', 'tn\nX1\n', 1)
         RETURNING id`,
        [t.workspaceId, other.userId],
      );
      await app.get(ImportsService).run(row.id);
      const res = await as(t).get(`/imports/${row.id}`).expect(200);
      expect(res.body).toMatchObject({
        status: 'failed',
        processedRows: 0,
        errors: [
          {
            line: null,
            message: 'The user who started the import can no longer write to its workspace.',
          },
        ],
      });
    });
  });
});
