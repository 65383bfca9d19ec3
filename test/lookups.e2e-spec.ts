import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  createOrder,
  createShipment,
  testOrderNumber,
  testTrackingNumber,
} from './factories/commerce.factory';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('lookups: POST /shipments/lookup and /orders/lookup', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    other = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const http = () => api(app, { token: tenant.token });
  const ids = (res: { body: Record<string, any> }) =>
    (res.body['hydra:member'] as Array<{ id: string }>).map((m) => m.id).sort();

  it('finds shipments by tracking number, order number, e-mail and phone, formatting aside', async () => {
    const number = testTrackingNumber('200');
    const orderNumber = testOrderNumber();
    const a = await createShipment(app, tenant, {
      trackingNumber: number,
      email: 'Jane.Doe@Example.com',
      phoneNumber: '+1 415 555 2671',
      orderNumbers: [orderNumber],
    });
    const b = await createShipment(app, tenant, { email: 'jane.doe@example.com' });
    await createShipment(app, tenant, { email: 'someone@example.com' });
    // The same e-mail in another tenant is never found.
    await createShipment(app, other, { email: 'jane.doe@example.com' });

    const byNumber = await http()
      .post('/shipments/lookup', { trackingNumber: number.toLowerCase() })
      .expect(200);
    expect(byNumber.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(byNumber.body).toMatchObject({
      '@context': '/contexts/Shipment',
      '@type': 'hydra:Collection',
      'hydra:totalItems': 1,
    });
    expect(byNumber.body['hydra:member'][0]).toMatchObject({
      '@id': `/shipments/${a.id}`,
      '@type': 'Shipment',
      trackingNumber: number,
    });

    expect(ids(await http().post('/shipments/lookup', { orderNumber }).expect(200))).toEqual([
      a.id,
    ]);
    expect(
      ids(await http().post('/shipments/lookup', { email: ' JANE.DOE@example.COM ' }).expect(200)),
    ).toEqual([a.id, b.id].sort());
    expect(
      ids(await http().post('/shipments/lookup', { phoneNumber: '(415) 555-2671' }).expect(200)),
    ).toEqual([a.id]);
    // Criteria combine: all must match.
    expect(
      ids(
        await http()
          .post('/shipments/lookup', { email: 'jane.doe@example.com', phoneNumber: '4155552671' })
          .expect(200),
      ),
    ).toEqual([a.id]);
    expect(
      ids(
        await http()
          .post('/shipments/lookup', { email: 'jane.doe@example.com', orderNumber: 'nope' })
          .expect(200),
      ),
    ).toEqual([]);
  });

  it('matches a free-text query against every kind', async () => {
    const number = testTrackingNumber('200');
    const a = await createShipment(app, tenant, { trackingNumber: number });
    const b = await createShipment(app, tenant, { email: 'query@example.com' });
    const c = await createShipment(app, tenant, { phoneNumber: '+44 20 7946 0958' });
    const d = await createShipment(app, tenant, { orderNumbers: ['Q-1001'] });
    for (const [query, id] of [
      [number, a.id],
      ['Query@Example.com', b.id],
      ['020 7946 0958', c.id],
      ['Q-1001', d.id],
    ]) {
      expect(ids(await http().post('/shipments/lookup', { query }).expect(200))).toEqual([id]);
    }
  });

  it('answers a bare array to JSON clients and pages like the collection', async () => {
    for (let i = 0; i < 3; i++) await createShipment(app, tenant, { email: 'page@example.com' });
    const json = await http()
      .json()
      .post('/shipments/lookup', { email: 'page@example.com' })
      .expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(Array.isArray(json.body)).toBe(true);
    expect(json.body).toHaveLength(3);
    expect(json.body[0]['@id']).toBeUndefined();

    const page = await http()
      .post('/shipments/lookup?itemsPerPage=2&page=2', { email: 'page@example.com' })
      .expect(200);
    expect(page.body['hydra:totalItems']).toBe(3);
    expect(page.body['hydra:member']).toHaveLength(1);
    expect(page.body['hydra:view']['hydra:first']).toContain('/shipments/lookup?');
  });

  it('limits to one workspace on request; a foreign or unknown workspace is 404', async () => {
    const second = await addWorkspace(app, tenant);
    const here = await createShipment(app, tenant, { email: 'ws@example.com' });
    const there = (
      await http()
        .post('/shipments', {
          workspace: `/workspaces/${second}`,
          trackingNumber: testTrackingNumber(),
          email: 'ws@example.com',
        })
        .expect(201)
    ).body;
    expect(ids(await http().post('/shipments/lookup', { email: 'ws@example.com' }))).toEqual(
      [here.id, there.id].sort(),
    );
    expect(
      ids(
        await http()
          .post('/shipments/lookup', { email: 'ws@example.com', workspaceId: second })
          .expect(200),
      ),
    ).toEqual([there.id]);
    expect(
      ids(
        await http()
          .post('/shipments/lookup', {
            email: 'ws@example.com',
            workspace: `/workspaces/${tenant.workspaceId}`,
          })
          .expect(200),
      ),
    ).toEqual([here.id]);
    await http()
      .post('/shipments/lookup', { email: 'ws@example.com', workspaceId: other.workspaceId })
      .expect(404);
    await http()
      .post('/orders/lookup', { email: 'ws@example.com', workspaceId: 'not-an-id' })
      .expect(404);
  });

  it('finds orders by order number, e-mail, phone and the tracking numbers of their shipments', async () => {
    const orderNumber = testOrderNumber();
    const order = await createOrder(app, tenant, {
      orderNumber,
      email: 'Buyer@Example.com',
      phoneNumber: '+14155552671',
    });
    const number = testTrackingNumber('200');
    await createShipment(app, tenant, { trackingNumber: number, orderNumbers: [orderNumber] });
    await createOrder(app, tenant, { email: 'else@example.com' });
    await createOrder(app, other, { orderNumber, email: 'buyer@example.com' });

    for (const body of [
      { orderNumber },
      { email: 'buyer@example.com' },
      { phoneNumber: '1 (415) 555-2671' },
      { trackingNumber: number },
      { query: number },
      { query: orderNumber },
    ]) {
      const res = await http().post('/orders/lookup', body).expect(200);
      expect(res.body['@context']).toBe('/contexts/Order');
      expect(ids(res)).toEqual([order.id]);
    }
  });

  it('rejects bad input clearly', async () => {
    const empty = await http().post('/shipments/lookup', {}).expect(422);
    expect(empty.body['@type']).toBe('ConstraintViolationList');
    await http().post('/orders/lookup', { email: '   ' }).expect(422);
    const short = await http().post('/shipments/lookup', { phoneNumber: '12' }).expect(422);
    expect(short.body.violations[0].propertyPath).toBe('phoneNumber');
    const type = await http().post('/shipments/lookup', { email: 5 }).expect(400);
    expect(type.body['hydra:description']).toContain('"email"');
    await http().post('/shipments/lookup', { email: 'x@example.com', workspaceId: 3 }).expect(400);
    await api(app, { token: tenant.token, contentType: 'text/plain' })
      .post('/shipments/lookup', 'email=x')
      .expect(415);
    await api(app, { token: tenant.token, accept: 'text/csv' })
      .post('/shipments/lookup', { email: 'x@example.com' })
      .expect(406);
    await api(app).post('/shipments/lookup', { email: 'x@example.com' }).expect(401);
  });
});
