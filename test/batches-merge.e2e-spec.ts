import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
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

describe('POST /shipments/merge', () => {
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
  const count = async (sql: string, params: unknown[]) =>
    (await db.query(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n as number;

  it('folds duplicates into the target: items, orders, notes and blanks move; duplicates go', async () => {
    const status = await createStatus(app, tenant, { code: 'checked' });
    const o1 = await createOrder(app, tenant);
    const o2 = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, o2['@id'], { qty: 3 });
    const target = await createShipment(app, tenant, { orderNumbers: [o1.orderNumber] });
    const dup1 = await createShipment(app, tenant, {
      trackingNumber: null,
      orderNumbers: [o2.orderNumber],
      email: 'dup@example.com',
      address: { city: 'Springfield', countryIso2: 'US' },
      shipmentStatus: { code: 'checked' },
    });
    const dup2 = await createShipment(app, tenant, {
      email: 'second@example.com',
      phoneNumber: '+14155552671',
      orderNumbers: [o1.orderNumber],
    });
    const si = await createShipmentItem(app, tenant, {
      shipment: dup1['@id'],
      orderItem: item['@id'],
      qty: 2,
    });
    const note = (
      await http()
        .post('/notes', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          entity: 'shipments',
          entityId: dup2.id,
          comment: 'customer called',
        })
        .expect(201)
    ).body;
    // dup1 has no tracking number: o2 counts one untracked shipment until the merge.
    expect((await http().get(o2['@id'])).body.shipmentsWithoutTrackingCount).toBe(1);

    const res = await http()
      .post('/shipments/merge', { target: target['@id'], shipments: [dup1.id, dup2['@id']] })
      .expect(200);
    expect(res.body).toMatchObject({
      '@id': `/shipments/${target.id}`,
      '@type': 'Shipment',
      trackingNumber: target.trackingNumber,
      email: 'dup@example.com',
      phoneNumber: '+14155552671',
      address: { city: 'Springfield', countryIso2: 'US' },
      shipmentStatus: { id: status.id, code: 'checked' },
    });
    expect(res.body.orderNumbers).toEqual([o1.orderNumber, o2.orderNumber]);
    expect([...res.body.orders].sort()).toEqual([o1['@id'], o2['@id']].sort());
    expect(res.body.shipmentItems).toEqual([si['@id']]);

    await http().get(dup1['@id']).expect(404);
    await http().get(dup2['@id']).expect(404);
    const movedItem = (await http().get(si['@id']).expect(200)).body;
    expect(movedItem).toMatchObject({ shipment: target['@id'], qty: 2 });
    const movedNote = (await http().get(note['@id']).expect(200)).body;
    expect(movedNote.entityId).toBe(target.id);
    const order2 = (await http().get(o2['@id'])).body;
    expect(order2).toMatchObject({
      shipmentsWithoutTrackingCount: 0,
      fulfillmentStatus: 'partial',
    });
    expect(order2.shipments).toEqual([target['@id']]);
  });

  it('keeps customers’ tracking page links and the review of a duplicate', async () => {
    const target = await createShipment(app, tenant);
    const dup = await createShipment(app, tenant);
    const dup2 = await createShipment(app, tenant);
    const page = async () =>
      (
        await db.query(
          `INSERT INTO tracking_page (workspace_id, subdomain) VALUES ($1, $2) RETURNING id`,
          [tenant.workspaceId, `merge-${randomUUID().slice(0, 8)}`],
        )
      )[0].id as string;
    const [p1, p2] = [await page(), await page()];
    const link = async (pageId: string, shipmentId: string) =>
      (
        await db.query(
          `INSERT INTO tracking_page_link (workspace_id, tracking_page_id, shipment_id, hash)
           VALUES ($1, $2, $3, $4) RETURNING id`,
          [tenant.workspaceId, pageId, shipmentId, randomUUID()],
        )
      )[0].id as string;
    const own = await link(p1, target.id); // the target's own link to page 1 stays
    const dupOnP1 = await link(p1, dup.id); // page 1 is taken: this one goes with the duplicate
    const dupOnP2 = await link(p2, dup.id); // page 2: moves to the target
    const dup2OnP2 = await link(p2, dup2.id); // page 2 again: the first duplicate's wins
    const [review] = await db.query(
      `INSERT INTO review (workspace_id, shipment_id, total_score) VALUES ($1, $2, 4) RETURNING id`,
      [tenant.workspaceId, dup.id],
    );

    const res = await http()
      .post('/shipments/merge', { target: target.id, shipments: [dup.id, dup2.id] })
      .expect(200);
    expect(res.body).toMatchObject({ review: `/reviews/${review.id}`, reviewTotalScore: 4 });
    const links = await db.query(
      `SELECT id, shipment_id FROM tracking_page_link WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [[own, dupOnP1, dupOnP2, dup2OnP2]],
    );
    expect(links.map((l: { id: string }) => l.id).sort()).toEqual([own, dupOnP2].sort());
    expect(links.every((l: { shipment_id: string }) => l.shipment_id === target.id)).toBe(true);
    const [moved] = await db.query(`SELECT shipment_id FROM review WHERE id = $1`, [review.id]);
    expect(moved.shipment_id).toBe(target.id);
  });

  it('keeps the target’s own values', async () => {
    const target = await createShipment(app, tenant, { email: 'target@example.com' });
    const dup = await createShipment(app, tenant, { email: 'dup@example.com' });
    const res = await http()
      .json()
      .post('/shipments/merge', { target: target.id, shipments: [dup.id] })
      .expect(200);
    expect(res.body.email).toBe('target@example.com');
    expect(res.body['@id']).toBeUndefined();
  });

  it('refuses without changing anything: 422 for the target among the merged or other workspaces, 404 for foreign or missing ids', async () => {
    const second = await addWorkspace(app, tenant);
    const target = await createShipment(app, tenant);
    const dup = await createShipment(app, tenant);
    const elsewhere = (
      await http()
        .post('/shipments', { workspace: `/workspaces/${second}` })
        .expect(201)
    ).body;
    const theirs = await createShipment(app, other);

    const self = await http()
      .post('/shipments/merge', { target: target.id, shipments: [dup.id, target['@id']] })
      .expect(422);
    expect(self.body.violations[0].propertyPath).toBe('shipments[1]');
    const cross = await http()
      .post('/shipments/merge', { target: target.id, shipments: [dup.id, elsewhere.id] })
      .expect(422);
    expect(cross.body.violations).toEqual([
      expect.objectContaining({ propertyPath: 'shipments[1]' }),
    ]);
    for (const body of [
      { target: target.id, shipments: [dup.id, theirs.id] },
      { target: theirs.id, shipments: [dup.id] },
      { target: target.id, shipments: [randomUUID()] },
      { target: target.id, shipments: ['nope'] },
      { target: `/orders/${target.id}`, shipments: [dup.id] },
    ]) {
      const res = await http().post('/shipments/merge', body).expect(404);
      expect(JSON.stringify(res.body)).not.toContain(theirs.id);
    }
    expect(
      await count('shipment WHERE id = ANY($1::uuid[])', [
        [target.id, dup.id, elsewhere.id, theirs.id],
      ]),
    ).toBe(4);
    await http()
      .post('/shipments/merge', { shipments: [dup.id] })
      .expect(422);
    await http().post('/shipments/merge', { target: target.id, shipments: [] }).expect(422);
    await http().post('/shipments/merge', { target: target.id, shipments: dup.id }).expect(400);
    await api(app, { token: tenant.token, contentType: 'text/plain' })
      .post('/shipments/merge', 'x')
      .expect(415);
    await api(app, { token: other.token })
      .post('/shipments/merge', { target: target.id, shipments: [dup.id] })
      .expect(404);
    expect(await count('shipment WHERE id = ANY($1::uuid[])', [[target.id, dup.id]])).toBe(2);
  });
});
