import { startWooCommerceFake, type WooCommerceFake } from '../fakes/woocommerce-fake';
import { describeStoreSync, type StoreOrderView } from './store-sync-harness';

const recent = () => new Date(Date.now() - 2 * 86_400_000);

function views(fake: WooCommerceFake): StoreOrderView[] {
  return fake.orders.map((order) => ({
    id: String(order.id),
    number: order.number,
    email: order.billing.email,
    lines: order.line_items.map((l) => ({ id: String(l.id), sku: l.sku, qty: l.quantity })),
    // Shipment Tracking items name no lines: the parcels carry no shipment items.
    parcels: (fake.trackings.get(order.id) ?? []).map((t) => ({
      id: t.tracking_id,
      trackingNumber: t.tracking_number,
      lines: [],
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

describeStoreSync({
  platform: 'woocommerce',
  deliveredUpdate:
    /^Shipment TM\w+( \(.+\))?: Delivered\. Springfield, US, .+Track it: http:\/\/127\.0\.0\.1:\d+\/t\/\S+\.$/,
  async start(count) {
    // One parcel per order: delivering it completes the order (completeOnDelivery).
    const fake = await startWooCommerceFake({
      orders: { count, start: recent(), seed: count * 11, fulfillments: { min: 1, max: 1 } },
    });
    const hook = () => fake.webhooks.find((w) => w.topic === 'order.updated')!;
    return {
      credentials: (refused) => ({
        parameters: {
          storeUrl: fake.baseUrl,
          consumerKey: fake.consumerKey,
          completeOnDelivery: true,
        },
        secrets: { consumerSecret: refused ? 'cs_revoked' : fake.consumerSecret },
      }),
      orders: () => views(fake),
      change: (id, email, number) => {
        fake.changeOrder(Number(id), (o) => {
          o.billing.email = email;
        });
        // The extension makes a new tracking item (a new id) for the new number.
        fake.setTrackingNumber(Number(id), 0, number);
      },
      notify: (id) => fake.notifyWebhooks('order.updated', Number(id)),
      retried: async (id) => {
        const delivery = fake.signedDelivery(hook().id, Number(id));
        const answers = [
          await post(hook().delivery_url, delivery),
          await post(hook().delivery_url, delivery),
        ];
        expect(answers.map((a) => a.outcome)).toEqual(['queued', 'duplicate']);
        return answers;
      },
      forged: async (url, id) =>
        (
          await post(
            url,
            fake.signedDelivery(hook().id, Number(id), { secret: 'not-our-secret-at-all' }),
          )
        ).status,
      // Created with our generated secret, and the creation ping answered 200.
      subscribed: (url) =>
        fake.webhooks.filter(
          (w) => w.delivery_url === url && w.pingStatus === 200 && w.status === 'active',
        ).length,
      updates: (id) => (fake.notes.get(Number(id)) ?? []).map((n) => n.note),
      completed: (id: string) =>
        fake.order(Number(id))!.status === 'completed' &&
        fake.orderUpdates.filter((u) => u.orderId === Number(id)).length === 1,
      down: (mode) => fake.down(mode),
      slowDown: () => fake.rateLimitNext(2),
      close: () => fake.close(),
    };
  },
});
