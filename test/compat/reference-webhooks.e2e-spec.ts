import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../../src/events/event-delivery';
import { Clock } from '../../src/tracking/clock';
import { verifySignature } from '../../src/webhooks/webhook-signature';
import { RETRIES, useEventApp } from '../support/event-app';
import { api } from '../support/http';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createOrder, testOrderNumber, testTrackingNumber } from '../factories/commerce.factory';

interface ReferenceItem {
  entity: string;
  event: string;
  data: Record<string, any>;
  updatedFields: string[];
  /** Only for an update another record's write made. */
  cause?: string;
}

/**
 * Webhook workflows as the reference's clients set them up and receive them: the PHP SDK's
 * test body (answered with what it sent), and the WooCommerce plugin's receiver, which checks
 * HTTP Basic credentials and reads `{"data": [{entity, event, data, updatedFields}]}`.
 */
describe('webhook workflows in the reference form', () => {
  const env = useEventApp({ env: RETRIES });
  let app: NestExpressApplication;
  let delivery: EventDelivery;
  let clock: Clock;
  let receiver: WebhookReceiver;
  let tenant: Tenant;

  beforeAll(() => {
    ({ app, receiver } = env);
    delivery = app.get(EventDelivery);
    clock = app.get(Clock);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    clock.reset();
    // What earlier tests left undelivered goes now, before this test counts.
    await delivery.runUntilIdle();
    receiver.received.length = 0;
    receiver.answers.length = 0;
    clock.reset();
  });

  const http = () => api(app, { token: tenant.token }).json();
  const items = () => receiver.received.flatMap((r) => JSON.parse(r.body).data as ReferenceItem[]);

  async function pluginHook(extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const res = await http()
      .post('/workflows', {
        type: 'webhook',
        period: 'immediately',
        title: 'WooCommerce',
        workspace: `/workspaces/${tenant.workspaceId}`,
        enabled: true,
        url: receiver.url('/?trackmage=callback'),
        authType: 'basic',
        username: 'wp_user',
        password: 'wp_secret',
        concurrency: 1,
        ...extra,
      })
      .expect(201);
    return res.body;
  }

  it('answers the PHP SDK test body with what it sent', async () => {
    const workflow = {
      type: 'webhook',
      period: 'immediately',
      title: 'Webhook for testing',
      workspace: `/workspaces/${tenant.workspaceId}`,
      enabled: true,
      concurrency: '1',
      url: 'http://acme.example',
      authType: 'basic',
      username: 'webhook_user',
      password: 'password',
      notificationEmails: ['test@email.com', 'test-2@email.com'],
    };
    const res = await http().post('/workflows', workflow).expect(201);
    expect(res.body).toMatchObject(workflow);
    await http()
      .post('/workflows', { ...workflow, authType: 'digest' })
      .expect(422);
    await http()
      .post('/workflows', { ...workflow, url: 'http://10.0.0.1/hook' })
      .expect(422);
  });

  it('sends the plugin the changes of orders, items and shipments, with Basic auth', async () => {
    const hook = await pluginHook();
    const order = await createOrder(app, tenant, { externalSourceSyncId: '501' });
    const item = (
      await http()
        .post('/order_items', { order: order['@id'], productName: 'Cap', qty: 2, price: '5' })
        .expect(201)
    ).body;
    const shipment = (
      await http()
        .post('/shipments', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          trackingNumber: testTrackingNumber(),
          externalSourceSyncId: '77',
          shipmentItems: [{ orderItem: `/order_items/${item.id}`, qty: 1 }],
        })
        .expect(201)
    ).body;
    await http().put(`/orders/${order.id}`, { email: 'buyer@example.com' }).expect(200);
    await delivery.runUntilIdle();

    expect(receiver.received.length).toBeGreaterThan(0);
    for (const request of receiver.received) {
      const expected = `Basic ${Buffer.from('wp_user:wp_secret').toString('base64')}`;
      expect(request.headers.authorization).toBe(expected);
      expect(request.path).toBe('/?trackmage=callback');
      // Our signature comes as an addition, keyed with the password here.
      const verified = verifySignature(
        'wp_secret',
        String(request.headers['x-signature']),
        request.body,
        Math.floor(Date.now() / 1000),
      );
      expect(verified).toBe(true);
    }
    const received = items();
    const pairs = received.map((i) => `${i.entity}:${i.event}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'orders:create',
        'order_items:create',
        'shipments:create',
        'shipment_items:create',
        'orders:update',
      ]),
    );
    const createdShipment = received.find((i) => i.entity === 'shipments' && i.event === 'create')!;
    expect(createdShipment.data).toMatchObject({
      '@id': `/shipments/${shipment.id}`,
      '@type': 'Shipment',
      id: shipment.id,
      externalSourceSyncId: '77',
    });
    expect(createdShipment.updatedFields).toEqual([]);
    const orderUpdates = received.filter((i) => i.entity === 'orders' && i.event === 'update');
    const update = orderUpdates.find((i) => i.cause === undefined)!;
    expect(update.data).toMatchObject({ '@id': `/orders/${order.id}`, '@type': 'Order' });
    expect(update.updatedFields).toContain('email');
    // The shipment's POST linked the order and fulfilled its item: an indirect update.
    const linked = orderUpdates.find((i) => i.cause === 'shipment')!;
    expect(linked.data).toMatchObject({
      '@id': `/orders/${order.id}`,
      shipments: [`/shipments/${shipment.id}`],
    });
    expect(linked.data.cause).toBeUndefined();
    expect(linked.updatedFields).toEqual(expect.arrayContaining(['shipments']));
    // Several changes travel in one request.
    expect(receiver.received.length).toBeLessThan(received.length);
    expect(hook.id).toBeDefined();
  });

  it('does not echo a write carrying ?ignoreWebhookId to that workflow', async () => {
    const hook = await pluginHook();
    await http()
      .post(`/orders?ignoreWebhookId=${hook.id}`, {
        workspace: `/workspaces/${tenant.workspaceId}`,
        orderNumber: testOrderNumber(),
      })
      .expect(201);
    await delivery.runUntilIdle();
    expect(receiver.received).toHaveLength(0);
    await createOrder(app, tenant);
    await delivery.runUntilIdle();
    expect(items().map((i) => `${i.entity}:${i.event}`)).toEqual(['orders:create']);
  });

  it('sends only what entity, event and field let through', async () => {
    await pluginHook({ entity: 'orders', event: 'update', field: 'email' });
    const order = await createOrder(app, tenant);
    await http().put(`/orders/${order.id}`, { total: '9' }).expect(200);
    await http().put(`/orders/${order.id}`, { email: 'a@example.com' }).expect(200);
    await delivery.runUntilIdle();
    const received = items();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ entity: 'orders', event: 'update' });
    expect(received[0].updatedFields).toContain('email');
  });

  it('retries failures with backoff and disables the workflow on 401', async () => {
    const hook = await pluginHook();
    receiver.answers.push(500);
    await createOrder(app, tenant);
    await delivery.runUntilIdle();
    expect(receiver.received).toHaveLength(1);
    clock.advance(31_000);
    await delivery.runUntilIdle();
    expect(receiver.received).toHaveLength(2);
    expect(items().map((i) => i.event)).toEqual(['create', 'create']);

    receiver.answers.push(401);
    await createOrder(app, tenant);
    await delivery.runUntilIdle();
    const read = await http().get(`/workflows/${hook.id}`).expect(200);
    expect(read.body.enabled).toBe(false);
    const notices = await api(app, { token: tenant.token })
      .get('/notifications?tag=workflow_failed')
      .expect(200);
    expect(notices.body['hydra:totalItems']).toBe(1);
    // Disabled: later changes are not sent.
    await createOrder(app, tenant);
    await delivery.runUntilIdle();
    clock.advance(3600_000);
    await delivery.runUntilIdle();
    expect(receiver.received).toHaveLength(3);
    const db = app.get(DataSource);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM workflow_run WHERE workflow_id = $1 AND response_code = 401`,
      [hook.id],
    );
    expect(n).toBe(1);
  });

  it('keeps the reference names of integration workflow types', async () => {
    const res = await http()
      .post('/workflows', {
        type: 'integration-woocommerce',
        period: 'immediately',
        title: 'Shop',
        workspace: `/workspaces/${tenant.workspaceId}`,
      })
      .expect(201);
    expect(res.body).toMatchObject({
      type: 'integration-woocommerce',
      integrationType: 'ecommerce',
    });
  });
});
