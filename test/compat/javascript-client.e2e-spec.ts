import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { closeTestApp, createTestApp } from '../support/app';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { testOrderNumber, testTrackingNumber } from '../factories/commerce.factory';

/** What axios sends unless told otherwise; the client reads `hydra:member` from the answers. */
const AXIOS_ACCEPT = 'application/json, text/plain, */*';

/**
 * The reference's JavaScript client (trackmage/trackmage-mcp-server trackmage-client.js):
 * client-credentials token, then axios calls with its default Accept and JSON-LD bodies.
 */
describe('the JavaScript client', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
    const client = await request(app.getHttpServer())
      .post('/oauth_clients')
      .set('Authorization', `Bearer ${tenant.token}`)
      .set('Accept', 'application/json')
      .send({ name: 'mcp', redirectUris: ['https://localhost'] })
      .expect(201);
    const issued = await request(app.getHttpServer())
      .get('/oauth/v2/token')
      .query({
        grant_type: 'client_credentials',
        client_id: client.body.publicId,
        client_secret: client.body.secret,
      })
      .expect(200);
    expect(issued.body.expires_in).toBeGreaterThan(0);
    token = issued.body.access_token;
  });
  afterAll(() => closeTestApp(app));

  const call = (method: 'get' | 'post' | 'put', path: string) =>
    request(app.getHttpServer())
      [method](path)
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', AXIOS_ACCEPT);
  const send = (method: 'post' | 'put', path: string, body: object) =>
    call(method, path).set('Content-Type', 'application/ld+json').send(body);

  it('creates, lists, reads and updates shipments and orders', async () => {
    const order = await send('post', '/orders', {
      orderNumber: testOrderNumber(),
      workspace: `/workspaces/${tenant.workspaceId}`,
    }).expect(201);
    const shipment = await send('post', '/shipments', {
      trackingNumber: testTrackingNumber(),
      workspace: `/workspaces/${tenant.workspaceId}`,
    }).expect(201);

    for (const type of ['shipments', 'orders']) {
      const list = await call('get', `/workspaces/${tenant.workspaceId}/${type}`)
        .query({ page: 1, itemsPerPage: 30 })
        .expect(200);
      expect(list.body['hydra:member']).toHaveLength(1);
    }
    const workspaces = await call('get', '/workspaces').query({ page: 1, itemsPerPage: 30 });
    expect(workspaces.body['hydra:member']).toHaveLength(1);
    for (const path of ['/public/carriers', '/public/tracking_statuses']) {
      const list = await call('get', path).query({ page: 1, itemsPerPage: 30 }).expect(200);
      expect(list.body['hydra:member'].length).toBeGreaterThan(0);
    }

    const read = await call('get', `/shipments/${shipment.body.id}`).expect(200);
    expect(read.body['@type']).toBe('Shipment');
    const checkpoints = await call('get', `/shipments/${shipment.body.id}/checkpoints`)
      .query({ 'order[checkpointDate]': 'desc', _locale: 'mixed' })
      .expect(200);
    expect(Array.isArray(checkpoints.body['hydra:member'])).toBe(true);

    const updatedOrder = await send('put', `/orders/${order.body.id}`, {
      email: 'js@example.com',
    }).expect(200);
    expect(updatedOrder.body.email).toBe('js@example.com');
    const updatedShipment = await send('put', `/shipments/${shipment.body.id}`, {
      email: 'js@example.com',
    }).expect(200);
    expect(updatedShipment.body.email).toBe('js@example.com');
  });

  // detectCarrier: GET /tracking_numbers/{n}/detect-carrier (in neither spec.md nor the
  // reference OpenAPI); the client reads `carrier` from the answer.
  it('detects the carrier of a tracking number', async () => {
    const ups = await request(app.getHttpServer())
      .get('/tracking_numbers/1Z999AA10123456784/detect-carrier')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', AXIOS_ACCEPT)
      .expect('Content-Type', /^application\/ld\+json/)
      .expect(200);
    expect(ups.body).toMatchObject({
      trackingNumber: '1Z999AA10123456784',
      carrier: 'ups',
      carriers: [{ code: 'ups', checksumValidated: true }],
    });
    // The carrier a POST /shipments then sets.
    const shipment = await send('post', '/shipments', {
      trackingNumber: '1Z999AA10123456784',
      workspace: `/workspaces/${tenant.workspaceId}`,
    }).expect(201);
    expect(shipment.body.originCarrier).toBe(ups.body.carrier);

    const tie = await request(app.getHttpServer())
      .get('/tracking_numbers/328460606002/detect-carrier')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(tie.body.carrier).toBeNull();
    expect(tie.body.carriers.map((c: { code: string }) => c.code).sort()).toEqual([
      'fedex',
      'purolator',
    ]);

    const bad = await request(app.getHttpServer())
      .get('/tracking_numbers/AB%2F12/detect-carrier')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', 'application/ld+json')
      .expect(422);
    expect(bad.body['@type']).toBe('ConstraintViolationList');
    expect(bad.body.violations[0].propertyPath).toBe('trackingNumber');
    await request(app.getHttpServer())
      .get('/tracking_numbers/1Z999AA10123456784/detect-carrier')
      .expect(401);
  });

  it('re-checks tracking numbers', async () => {
    const number = testTrackingNumber();
    await send('post', '/shipments', {
      trackingNumber: number,
      workspace: `/workspaces/${tenant.workspaceId}`,
    }).expect(201);
    const checked = await send('post', '/check_tracking_numbers', {
      workspaceId: tenant.workspaceId,
      trackingNumbers: [number],
    });
    expect(checked.status).toBe(200);
  });
});
