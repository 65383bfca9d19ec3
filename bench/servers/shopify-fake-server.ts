/**
 * The Shopify fake (test/fakes/shopify-fake.ts) in a process of its own, for the store sync
 * bench: its GraphQL executor does not take CPU from the import measured. Seeded from the
 * environment (ORDERS, SEED, BUCKET: `standard`, `scaled` (10 x Standard) or `none`); the shop
 * is named after its own loopback host. Prints `listening <port>`; `GET /__bench/costs`
 * answers the points its answered queries cost, `GET /__bench/shop` the shop and token.
 */
import { SHOPIFY_STANDARD_BUCKET, startShopifyFake } from '../../test/fakes/shopify-fake';

async function main(): Promise<void> {
  const bucketName = process.env.BUCKET ?? 'standard';
  const bucket =
    bucketName === 'none'
      ? null
      : bucketName === 'scaled'
        ? {
            maximumAvailable: SHOPIFY_STANDARD_BUCKET.maximumAvailable * 10,
            restoreRate: SHOPIFY_STANDARD_BUCKET.restoreRate * 10,
          }
        : SHOPIFY_STANDARD_BUCKET;
  const fake = await startShopifyFake({
    orders: {
      count: Number(process.env.ORDERS ?? 1000),
      seed: Number(process.env.SEED ?? 1),
      start: new Date(Date.now() - 10 * 86_400_000),
    },
    bucket,
    shopDomain: (host) => host,
  });
  fake.server.on('GET', '/__bench/costs', () => ({
    status: 200,
    body: {
      queries: fake.costs.length,
      throttled: fake.costs.filter((c) => c.throttled).length,
      actual: fake.costs.reduce((sum, c) => sum + (c.actual ?? 0), 0),
      bucket,
    },
  }));
  fake.server.on('GET', '/__bench/shop', () => ({
    status: 200,
    body: {
      shopDomain: fake.shopDomain,
      accessToken: fake.accessToken,
      clientSecret: fake.clientSecret,
      orders: fake.orders.length,
      parcels: fake.orders.reduce((n, o) => n + o.fulfillments.length, 0),
    },
  }));
  process.stdout.write(`listening ${new URL(fake.baseUrl).port}\n`);
}

void main();
