import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, createTenant } from './factories/tenant.factory';

/** Custom field values live on the records, are validated by field type and filter collections. */
describe('custom field values on orders', () => {
  let app: NestExpressApplication;
  let t: Tenant;
  let workspace: string;

  beforeAll(async () => {
    app = await createTestApp();
    t = await createTenant(app);
    workspace = `/workspaces/${t.workspaceId}`;
    const http = api(app, { token: t.token });
    await http
      .post('/fields', {
        code: 'gift_note',
        workspace,
        entity: 'orders',
        title: 'Gift note',
        fieldType: 'text',
      })
      .expect(201);
    await http
      .post('/fields', {
        code: 'priority',
        workspace,
        entity: 'orders',
        title: 'Priority',
        fieldType: 'number',
      })
      .expect(201);
  });
  afterAll(() => closeTestApp(app));

  const order = (n: string, customFields: Record<string, unknown>) =>
    api(app, { token: t.token }).post('/orders', {
      workspace,
      orderNumber: n,
      orderType: 'customer',
      customFields,
    });

  it('stores and returns valid values', async () => {
    const res = await order('CF-1', { gift_note: 'Happy birthday', priority: 2 }).expect(201);
    expect(res.body.customFields).toEqual({ gift_note: 'Happy birthday', priority: 2 });
  });

  it('rejects wrong types and unknown codes with 422 naming the field, storing nothing', async () => {
    const res = await order('CF-2', { priority: 'high', nope: 1 }).expect(422);
    const paths = res.body.violations.map((v: { propertyPath: string }) => v.propertyPath);
    expect(paths).toEqual(expect.arrayContaining(['customFields.priority', 'customFields.nope']));
    const list = await api(app, { token: t.token }).get('/orders?orderNumber=CF-2').expect(200);
    expect(list.body['hydra:totalItems']).toBe(0);
  });

  it('filters by a custom field value', async () => {
    await order('CF-3', { gift_note: 'No card', priority: 5 }).expect(201);
    const one = await api(app, { token: t.token })
      .get('/orders?customFields.priority=5')
      .expect(200);
    expect(one.body['hydra:member'].map((o: { orderNumber: string }) => o.orderNumber)).toEqual([
      'CF-3',
    ]);
    const many = await api(app, { token: t.token })
      .get('/orders?customFields.gift_note[]=No%20card&customFields.gift_note[]=Happy%20birthday')
      .expect(200);
    expect(many.body['hydra:totalItems']).toBe(2);
    expect(many.body['hydra:search']['hydra:template']).toContain('customFields.{code}');
  });

  it('works the same on shipments', async () => {
    const http = api(app, { token: t.token });
    await http
      .post('/fields', {
        code: 'warehouse',
        workspace,
        entity: 'shipments',
        title: 'Warehouse',
        fieldType: 'text',
      })
      .expect(201);
    const res = await http
      .post('/shipments', {
        workspace,
        trackingNumber: 'TM102CUSTOMFIELDTM',
        customFields: { warehouse: 'Leeds' },
      })
      .expect(201);
    expect(res.body.customFields).toEqual({ warehouse: 'Leeds' });
    await http
      .post('/shipments', {
        workspace,
        trackingNumber: 'TM102CUSTOMFIELD2TM',
        customFields: { gift_note: 'x' },
      })
      .expect(422);
    const found = await http.get('/shipments?customFields.warehouse=Leeds').expect(200);
    expect(
      found.body['hydra:member'].map((s: { trackingNumber: string }) => s.trackingNumber),
    ).toEqual(['TM102CUSTOMFIELDTM']);
  });
});
