import { createTenant } from '../factories/tenant.factory';
import { startShopifyFake, type ShopifyFake, type ShopifyFakeOrder } from '../fakes/shopify-fake';
import { api } from '../support/http';
import { describeStoreSync, type StoreOrderView, type StoreUnderTest } from './store-sync-harness';

/** The store of a test with its fake, for Shopify's own tests. */
type ShopifyStore = StoreUnderTest & { fake: ShopifyFake };

const recent = () => new Date(Date.now() - 2 * 86_400_000);

function view(order: ShopifyFakeOrder): StoreOrderView {
  return {
    id: String(order.id),
    number: order.name.replace(/^#/, ''),
    email: order.email ?? '',
    lines: order.lineItems.map((l) => ({ id: String(l.id), sku: l.sku ?? '', qty: l.quantity })),
    parcels: order.fulfillments.map((f) => ({
      id: String(f.id),
      trackingNumber: f.trackingInfo[0].number,
      lines: f.lines.map((l) => ({ lineId: String(l.lineItemId), qty: l.quantity })),
    })),
  };
}

describeStoreSync({
  platform: 'shopify',
  deliveredUpdate: /^\d+:DELIVERED@Springfield$/,
  async start(count) {
    // The service calls the shop at its domain: the fake's own host, allow-listed over http.
    const fake = await startShopifyFake({
      orders: { count, start: recent(), seed: count * 7 },
      shopDomain: (host) => host,
    });
    const store: ShopifyStore = {
      fake,
      credentials: (refused) => ({
        parameters: { shopDomain: fake.shopDomain },
        secrets: {
          accessToken: refused ? 'shpat_revoked' : fake.accessToken,
          webhookSecret: fake.clientSecret,
        },
      }),
      orders: () => fake.orders.map(view),
      change: (id, email, number) => {
        fake.changeOrder(Number(id), (o) => {
          o.email = email;
          o.customer.email = email;
        });
        fake.setTrackingNumber(fake.order(Number(id))!.fulfillments[0].id, number);
      },
      notify: (id) => fake.notifySubscribers('orders/updated', Number(id)),
      retried: async (id) => {
        const url = fake.subscriptions.find((s) => s.topic === 'ORDERS_UPDATED')!.uri;
        const delivery = fake.signedWebhook('orders/updated', Number(id), {
          webhookId: `retry-${id}`,
        });
        const answers = [];
        for (let i = 0; i < 2; i++) {
          const res = await fetch(url, {
            method: 'POST',
            headers: delivery.headers,
            body: delivery.body,
          });
          answers.push({
            status: res.status,
            outcome: ((await res.json()) as { outcome?: unknown }).outcome,
          });
        }
        expect(answers.map((a) => a.outcome)).toEqual(['queued', 'duplicate']);
        return answers;
      },
      forged: (url, id) =>
        fake.deliverWebhook(
          url,
          fake.signedWebhook('orders/updated', Number(id), { secret: 'not-the-app-secret' }),
        ),
      subscribed: (url) => fake.subscriptions.filter((s) => s.uri === url).length,
      updates: (id) =>
        fake
          .order(Number(id))!
          .fulfillments.flatMap((f) => f.events.map((e) => `${f.id}:${e.status}@${e.city ?? ''}`)),
      down: (mode) => fake.down(mode),
      slowDown: () => fake.drainBucket(),
      close: () => fake.close(),
    };
    return store;
  },
  extra(kit) {
    it('answers Shopify’s privacy topics: data requests told, customers redacted, shops erased', async () => {
      const store = (await kit.start(2)) as ShopifyStore;
      const tenant = await createTenant(kit.app());
      const { id } = await kit.connect(tenant, store);
      await kit.finishedRuns(tenant, id, 1);
      const [first, second] = store.fake.orders;
      const send = async (topic: string, orderId: number) => {
        const delivery = store.fake.signedWebhook(topic, orderId);
        const res = await fetch(kit.receiverUrl(id), {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
        });
        return { status: res.status, body: (await res.json()) as { outcome?: string } };
      };
      const http = api(kit.app(), { token: tenant.token });

      expect(await send('customers/data_request', first.id)).toEqual({
        status: 200,
        body: { outcome: 'queued' },
      });
      await kit.finishedRuns(tenant, id, 2);
      const told = await http.get('/notifications?tag=store_privacy_request').expect(200);
      expect(told.body['hydra:member'][0].message).toMatch(
        new RegExp(`customers/data_request .*store orders ${first.id}.*/orders/`),
      );

      expect((await send('customers/redact', first.id)).status).toBe(200);
      await kit.finishedRuns(tenant, id, 3);
      const orders = await kit.imported(tenant, 'orders', id);
      const redacted = orders.find((o) => o.externalSourceSyncId === String(first.id))!;
      expect(redacted).toMatchObject({ email: null, phoneNumber: null });
      expect(redacted.shippingAddress).toMatchObject({ addressLine1: null, lastName: null });
      const kept = orders.find((o) => o.externalSourceSyncId === String(second.id))!;
      expect(kept.email).toBe(second.email);
      for (const s of await kit.imported(tenant, 'shipments', id))
        if (first.fulfillments.some((f) => String(f.id) === s.externalSourceSyncId))
          expect(s).toMatchObject({ email: null, phoneNumber: null });

      expect((await send('shop/redact', first.id)).status).toBe(200);
      await kit.finishedRuns(tenant, id, 4);
      expect(await kit.imported(tenant, 'orders', id)).toEqual([]);
      expect(await kit.imported(tenant, 'shipments', id)).toEqual([]);
    });
  },
});
