import { startShopifyFake, type ShopifyFakeOrder } from '../fakes/shopify-fake';
import { describeStoreSync, type StoreOrderView } from './store-sync-harness';

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
    return {
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
  },
});
