import { startBigCommerceFake, type BigCommerceFake } from '../fakes/bigcommerce-fake';
import { startPathRouter, type PathRouter } from '../support/path-router';
import { describeStoreSync, type StoreOrderView } from './store-sync-harness';

const recent = () => new Date(Date.now() - 2 * 86_400_000);
const HOOK_HEADER = 'X-Store-Sync-Secret';

function views(fake: BigCommerceFake): StoreOrderView[] {
  return fake.orders.map((order) => ({
    id: String(order.id),
    number: String(order.id),
    email: order.billing_address.email,
    lines: order.products.map((p) => ({ id: String(p.id), sku: p.sku, qty: p.quantity })),
    parcels: order.shipments.map((s) => ({
      id: String(s.id),
      trackingNumber: s.tracking_number,
      lines: s.items.map((i) => ({ lineId: String(i.order_product_id), qty: i.quantity })),
    })),
  }));
}

async function post(url: string, delivery: { headers: Record<string, string>; body: string }) {
  const res = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
  const text = await res.text();
  return {
    status: res.status,
    outcome: text ? (JSON.parse(text) as { outcome?: unknown }).outcome : null,
  };
}

// BigCommerce's API root is the operator's (BIGCOMMERCE_API_ROOT): one router in front of a
// fake per test, each at its own `/stores/{hash}`.
let router: PathRouter;

describeStoreSync({
  platform: 'bigcommerce',
  deliveredUpdate: /^status_id:10$/,
  async env() {
    router = await startPathRouter();
    return { BIGCOMMERCE_API_ROOT: router.baseUrl };
  },
  close: () => router.close(),
  async start(count) {
    // One parcel per order: delivering it completes the order (statusIdOnDelivery).
    const fake = await startBigCommerceFake({
      orders: { count, start: recent(), seed: count * 13, fulfillments: { min: 1, max: 1 } },
    });
    router.route(`/stores/${fake.storeHash}`, fake.baseUrl);
    const hook = () => fake.hooks.find((h) => h.scope === 'store/order/updated')!;
    return {
      credentials: (refused) => ({
        parameters: { storeHash: fake.storeHash, statusIdOnDelivery: 10 },
        secrets: { accessToken: refused ? 'revoked-token' : fake.accessToken },
      }),
      orders: () => views(fake),
      change: (id, email, number) => {
        fake.changeOrder(Number(id), (o) => {
          o.billing_address.email = email;
        });
        fake.setTrackingNumber(Number(id), 0, number);
      },
      notify: (id) => fake.notifyHooks('store/order/updated', { type: 'order', id: Number(id) }),
      // A retry carries the same hash: coalesced while the first waits, harmless after.
      retried: async (id) => {
        const delivery = fake.delivery(hook().id, { type: 'order', id: Number(id) });
        return [await post(hook().destination, delivery), await post(hook().destination, delivery)];
      },
      forged: async (url, id) =>
        (
          await post(
            url,
            fake.delivery(
              hook().id,
              { type: 'order', id: Number(id) },
              { headers: { [HOOK_HEADER]: 'guessed' } },
            ),
          )
        ).status,
      subscribed: (url) =>
        fake.hooks.filter((h) => h.destination === url && h.is_active && h.headers[HOOK_HEADER])
          .length,
      updates: (id) =>
        fake.statusUpdates
          .filter((u) => u.orderId === Number(id))
          .map((u) => `status_id:${(u.body as { status_id?: unknown }).status_id}`),
      down: (mode) => fake.down(mode),
      slowDown: () =>
        fake.server.failNext({
          status: 429,
          headers: { 'X-Rate-Limit-Time-Reset-Ms': '2000', 'X-Rate-Limit-Requests-Left': '0' },
          body: [{ status: 429, message: 'Too many requests.' }],
        }),
      close: () => fake.close(),
    };
  },
});
