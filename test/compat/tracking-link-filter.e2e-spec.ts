import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createShipment, testOrderNumber } from '../factories/commerce.factory';
import { uniqueSubdomain } from '../factories/media.factory';

/**
 * The WooCommerce plugin asks for the tracking page link of a shipment (`filter: {id}`) and
 * of an order's customer (`filter: {email}`); other clients by `orderNumbers`.
 */
describe('generate_tracking_page_link filters', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let pageId: string;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
    pageId = (
      await api(app, { token: tenant.token })
        .post('/tracking_pages', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          subdomain: uniqueSubdomain('compat'),
          title: 'Where is my parcel',
        })
        .expect(201)
    ).body.id;
  });
  afterAll(() => closeTestApp(app));

  const generate = (filter: unknown) =>
    api(app, { token: tenant.token })
      .json()
      .post('/generate_tracking_page_link', { trackingPageId: pageId, filter });
  // supertest serves each request on its own port: compare the links' hashes.
  const hash = (link: string) => link.slice(link.lastIndexOf('/') + 1);
  const linkOf = async (shipmentId: string) =>
    hash((await generate({ id: shipmentId }).expect(201)).body.link);

  it('links the newest shipment of a customer e-mail or of order numbers', async () => {
    const number = testOrderNumber();
    const older = await createShipment(app, tenant, {
      email: 'Buyer@Example.com',
      orderNumbers: [number],
    });
    const newer = await createShipment(app, tenant, { email: 'buyer@example.com' });
    const byEmail = await generate({ email: 'BUYER@example.com' }).expect(201);
    expect(hash(byEmail.body.link)).toBe(await linkOf(newer.id));
    const byOrder = await generate({ orderNumbers: [number] }).expect(201);
    expect(hash(byOrder.body.link)).toBe(await linkOf(older.id));
    const both = await generate({ email: 'buyer@example.com', orderNumbers: number }).expect(201);
    expect(hash(both.body.link)).toBe(await linkOf(older.id));
  });

  it('answers 422 when nothing matches and 400 for wrong types', async () => {
    const none = await generate({ email: 'nobody@example.com' }).expect(422);
    expect(none.body.violations[0].propertyPath).toBe('filter.email');
    await generate({ orderNumbers: ['NOPE'] }).expect(422);
    await generate({ email: 42 }).expect(400);
    await generate({ orderNumbers: [1] }).expect(400);
    // Another tenant's customer is not found through this page.
    const other = await createTenant(app);
    await createShipment(app, other, { email: 'theirs@example.com' });
    await generate({ email: 'theirs@example.com' }).expect(422);
  });
});
