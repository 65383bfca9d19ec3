import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import {
  createOrder,
  createShipment,
  testOrderNumber,
  testTrackingNumber,
} from './factories/commerce.factory';

describe('widgets and widget logs', () => {
  let app: NestExpressApplication;
  let a: Tenant;
  let b: Tenant;
  const as = (t: Tenant) => api(app, { token: t.token });
  const visitor = () => api(app);

  beforeAll(async () => {
    app = await createTestApp();
    a = await createTenant(app);
    b = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  async function widget(t: Tenant, body: Record<string, unknown> = {}) {
    const res = await as(t)
      .post('/widgets', {
        workspace: `/workspaces/${t.workspaceId}`,
        title: 'Track your parcel',
        type: 'tracking_form',
        ...body,
      })
      .expect(201);
    return res.body;
  }

  describe('CRUD', () => {
    it('creates a widget (enabled by default), replaces and deletes it', async () => {
      const w = await widget(a, { options: ['show_carrier', 'show_carrier'] });
      expect(w).toMatchObject({
        '@context': '/contexts/Widget',
        '@type': 'Widget',
        title: 'Track your parcel',
        type: 'tracking_form',
        enabled: true,
        workspace: `/workspaces/${a.workspaceId}`,
        options: ['show_carrier'],
      });
      const replaced = await as(a)
        .put(w['@id'], {
          title: 'Find my order',
          type: 'order_lookup',
          enabled: false,
          options: [],
          workspace: `/workspaces/${b.workspaceId}`,
        })
        .expect(200);
      expect(replaced.body).toMatchObject({
        title: 'Find my order',
        type: 'order_lookup',
        enabled: false,
        options: [],
        workspace: `/workspaces/${a.workspaceId}`,
      });
      await as(a).delete(w['@id']).expect(204);
      await as(a).get(w['@id']).expect(404);
    });

    it('validates title, type and options', async () => {
      const res = await as(a)
        .post('/widgets', {
          workspace: `/workspaces/${a.workspaceId}`,
          title: 'abc',
          type: 'popup',
          options: ['show_everything'],
        })
        .expect(422);
      expect(
        res.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort(),
      ).toEqual(['options', 'title', 'type']);
      const blank = await as(a).post('/widgets', {}).expect(422);
      expect(
        blank.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort(),
      ).toEqual(['title', 'type', 'workspace']);
      await as(a)
        .post('/widgets', {
          workspace: `/workspaces/${a.workspaceId}`,
          title: 'Good title',
          type: 'tracking_form',
          enabled: 'yes',
        })
        .expect(400);
      const w = await widget(a);
      await as(a).put(w['@id'], { title: 'Good title', type: '' }).expect(422);
    });

    it('lets read-only members of the workspace read widgets but not write them', async () => {
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
      const w = await widget(a);
      await as(reader).get(w['@id']).expect(200);
      await as(reader)
        .post('/widgets', {
          workspace: `/workspaces/${a.workspaceId}`,
          title: 'Not allowed',
          type: 'tracking_form',
        })
        .expect(403);
      await as(reader).put(w['@id'], { title: 'Not allowed', type: 'tracking_form' }).expect(403);
      await as(reader).delete(w['@id']).expect(403);
    });

    it('lists per workspace and team, and keeps tenants apart', async () => {
      const t = await createTenant(app);
      const w1 = await widget(t, { title: 'First widget' });
      const w2 = await widget(t, { title: 'Second widget' });
      const theirs = await widget(b);
      const ids = (body: { 'hydra:member': Array<{ id: string }> }) =>
        body['hydra:member'].map((m) => m.id).sort();
      const own = await as(t).get('/widgets').expect(200);
      expect(ids(own.body)).toEqual([w1.id, w2.id].sort());
      const nested = await as(t).get(`/workspaces/${t.workspaceId}/widgets`).expect(200);
      expect(ids(nested.body)).toEqual([w1.id, w2.id].sort());
      const team = await as(t)
        .get(`/teams/${t.teamId}/workspaces/${t.workspaceId}/widgets?itemsPerPage=1`)
        .expect(200);
      expect(team.body['hydra:totalItems']).toBe(2);
      expect(team.body['hydra:member']).toHaveLength(1);
      await as(t).get(`/workspaces/${b.workspaceId}/widgets`).expect(404);
      await as(t).get(theirs['@id']).expect(404);
      await as(t).put(theirs['@id'], { title: 'Mine now', type: 'tracking_form' }).expect(404);
      await as(t).delete(theirs['@id']).expect(404);
      await as(t).get(`${theirs['@id']}/logs`).expect(404);
    });
  });

  describe('public lookups and their log', () => {
    it('serves an enabled widget without a token; 404 when disabled or unknown', async () => {
      const w = await widget(a, { options: ['show_checkpoints'] });
      const res = await visitor().get(`/public/widgets/${w.id}`).expect(200);
      expect(res.body).toMatchObject({
        '@type': 'PublicWidget',
        id: w.id,
        title: 'Track your parcel',
        type: 'tracking_form',
        options: ['show_checkpoints'],
      });
      expect(res.body.workspace).toBeUndefined();
      await as(a)
        .put(w['@id'], { title: 'Track your parcel', type: 'tracking_form', enabled: false })
        .expect(200);
      await visitor().get(`/public/widgets/${w.id}`).expect(404);
      await visitor().post(`/public/widgets/${w.id}/lookup`, { trackingNumber: 'X' }).expect(404);
      await visitor().get('/public/widgets/not-a-uuid').expect(404);
    });

    it('finds a shipment of the widget’s workspace by tracking number, and logs every lookup', async () => {
      const w = await widget(a, { options: ['show_carrier', 'show_checkpoints'] });
      const number = testTrackingNumber('200');
      await createShipment(app, a, { trackingNumber: number, email: 'buyer@example.test' });
      const found = await visitor()
        .post(`/public/widgets/${w.id}/lookup`, { trackingNumber: ` ${number.toLowerCase()} ` })
        .expect(200);
      expect(found.body.widget).toBe(`/public/widgets/${w.id}`);
      expect(found.body.shipments).toHaveLength(1);
      const shipment = found.body.shipments[0];
      expect(shipment).toMatchObject({
        trackingNumber: number,
        trackingStatus: 'delivered',
        originCarrier: 'tm-test',
      });
      expect(shipment.checkpoints.length).toBeGreaterThan(0);
      expect(shipment.email).toBeUndefined();
      expect(shipment.expectedDeliveryDate).toBeUndefined();

      // Another workspace's numbers are not found through this widget.
      const foreign = testTrackingNumber('102');
      await createShipment(app, b, { trackingNumber: foreign });
      const none = await visitor()
        .post(`/public/widgets/${w.id}/lookup`, { trackingNumber: foreign })
        .expect(200);
      expect(none.body.shipments).toEqual([]);
      const refused = await visitor().post(`/public/widgets/${w.id}/lookup`, {}).expect(422);
      expect(refused.body.violations[0].propertyPath).toBe('trackingNumber');

      const logs = await as(a).get(`${w['@id']}/logs?order%5BcreatedAt%5D=asc`).expect(200);
      expect(logs.body['@context']).toBe('/contexts/WidgetLog');
      expect(logs.body['hydra:member'].map((l: { info: string }) => l.info)).toEqual([
        `Lookup by tracking number "${number.toLowerCase()}": 1 shipment found.`,
        `Lookup by tracking number "${foreign}": nothing found.`,
        'Lookup refused: trackingNumber: This value should not be blank.',
      ]);
      const first = logs.body['hydra:member'][0];
      expect(first).toMatchObject({ '@type': 'WidgetLog', widget: w['@id'] });
      const one = await as(a).get(first['@id']).expect(200);
      expect(one.body.info).toBe(first.info);
      await as(b).get(first['@id']).expect(404);

      const byInfo = await as(a)
        .get(`/widget_logs?info=${encodeURIComponent(first.info)}`)
        .expect(200);
      expect(byInfo.body['hydra:member'].map((l: { id: string }) => l.id)).toEqual([first.id]);
      const nested = await as(a)
        .get(`/workspaces/${a.workspaceId}/widgets/${w.id}/logs?createdAt%5Bafter%5D=2000-01-01`)
        .expect(200);
      expect(nested.body['hydra:totalItems']).toBe(3);
      const team = await as(a)
        .get(`/teams/${a.teamId}/workspaces/${a.workspaceId}/widgets/${w.id}/logs`)
        .expect(200);
      expect(team.body['hydra:totalItems']).toBe(3);
      const theirs = await as(b).get('/widget_logs').expect(200);
      expect(theirs.body['hydra:member'].map((l: { id: string }) => l.id)).not.toContain(first.id);
      await as(b).get(`/workspaces/${a.workspaceId}/widgets/${w.id}/logs`).expect(404);
    });

    it('finds an order’s shipments only with the order’s e-mail address', async () => {
      const w = await widget(a, { type: 'order_lookup', options: ['show_expected_delivery'] });
      const orderNumber = testOrderNumber();
      await createOrder(app, a, { orderNumber, email: 'Buyer@Example.test' });
      const number = testTrackingNumber('102');
      await createShipment(app, a, { trackingNumber: number, orderNumbers: [orderNumber] });
      const found = await visitor()
        .post(`/public/widgets/${w.id}/lookup`, { orderNumber, email: 'buyer@example.TEST' })
        .expect(200);
      expect(found.body.shipments).toEqual([
        expect.objectContaining({ trackingNumber: number, trackingStatus: 'in_transit' }),
      ]);
      expect('expectedDeliveryDate' in found.body.shipments[0]).toBe(true);
      expect(found.body.shipments[0].originCarrier).toBeUndefined();
      const wrong = await visitor()
        .post(`/public/widgets/${w.id}/lookup`, { orderNumber, email: 'someone@example.test' })
        .expect(200);
      expect(wrong.body.shipments).toEqual([]);
      const missing = await visitor()
        .post(`/public/widgets/${w.id}/lookup`, { trackingNumber: number })
        .expect(422);
      expect(missing.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual([
        'orderNumber',
        'email',
      ]);
      const logs = await as(a).get(`/widgets/${w.id}/logs`).expect(200);
      const infos = logs.body['hydra:member'].map((l: { info: string }) => l.info).join('\n');
      expect(infos).toContain(`Lookup by order number "${orderNumber}": 1 shipment found.`);
      expect(infos).toContain(`Lookup by order number "${orderNumber}": nothing found.`);
      expect(infos.toLowerCase()).not.toContain('buyer@example.test');
    });

    it('limits lookups per widget and client address', async () => {
      const w = await widget(a);
      let status = 200;
      for (let i = 0; i < 40 && status !== 429; i++) {
        const res = await visitor().post(`/public/widgets/${w.id}/lookup`, {
          trackingNumber: `N${i}`,
        });
        status = res.status;
        if (status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(status).toBe(429);
      // Another widget has its own budget.
      const other = await widget(a);
      await visitor()
        .post(`/public/widgets/${other.id}/lookup`, { trackingNumber: 'N1' })
        .expect(200);
    });

    it('goes with its widget', async () => {
      const w = await widget(a);
      await visitor()
        .post(`/public/widgets/${w.id}/lookup`, { trackingNumber: 'GONE1' })
        .expect(200);
      const logs = await as(a).get(`/widgets/${w.id}/logs`).expect(200);
      const log = logs.body['hydra:member'][0];
      await as(a).delete(w['@id']).expect(204);
      await as(a).get(log['@id']).expect(404);
    });
  });
});
