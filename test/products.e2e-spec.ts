import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';

describe('products and product variants', () => {
  let app: NestExpressApplication;
  let a: Tenant;
  let b: Tenant;
  const as = (t: Tenant) => api(app, { token: t.token });

  beforeAll(async () => {
    app = await createTestApp();
    a = await createTenant(app);
    b = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  async function product(t: Tenant, body: Record<string, unknown> = {}) {
    const res = await as(t)
      .post('/products', { team: `/teams/${t.teamId}`, name: 'Jacket', ...body })
      .expect(201);
    return res.body;
  }

  async function variant(t: Tenant, productIri: string, body: Record<string, unknown> = {}) {
    const res = await as(t)
      .post('/product_variants', {
        team: `/teams/${t.teamId}`,
        product: productIri,
        sku: `V-${Math.random().toString(36).slice(2, 10)}`,
        ...body,
      })
      .expect(201);
    return res.body;
  }

  describe('products', () => {
    it('creates, reads, replaces and deletes a product of the team', async () => {
      const created = await product(a, {
        sku: ' JACKET-01 ',
        originUrl: 'https://shop.example/jacket',
        imageUrl: 'https://shop.example/jacket.jpg',
        externalSourceSyncId: 'wp_1',
      });
      expect(created).toMatchObject({
        '@context': '/contexts/Product',
        '@type': 'Product',
        team: `/teams/${a.teamId}`,
        name: 'Jacket',
        sku: 'JACKET-01',
        originUrl: 'https://shop.example/jacket',
        imageUrl: 'https://shop.example/jacket.jpg',
        externalSourceIntegration: null,
        externalSourceSyncId: 'wp_1',
        productVariants: [],
      });
      const iri = created['@id'];
      const replaced = await as(a)
        .put(iri, { name: 'Winter jacket', sku: '', team: `/teams/${b.teamId}` })
        .expect(200);
      expect(replaced).toBeDefined();
      expect(replaced.body).toMatchObject({
        name: 'Winter jacket',
        sku: null,
        team: `/teams/${a.teamId}`,
      });
      await as(a).delete(iri).expect(204);
      await as(a).get(iri).expect(404);
    });

    it('validates fields: URLs, SKU unique per team, team required and visible', async () => {
      const bad = await as(a)
        .post('/products', { team: `/teams/${a.teamId}`, originUrl: 'javascript:alert(1)' })
        .expect(422);
      expect(bad.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'originUrl',
          message: 'This value is not a valid URL.',
        }),
      ]);
      const noTeam = await as(a).post('/products', { name: 'x' }).expect(422);
      expect(noTeam.body.violations[0].propertyPath).toBe('team');
      const foreign = await as(a)
        .post('/products', { team: `/teams/${b.teamId}`, name: 'x' })
        .expect(422);
      expect(foreign.body.violations[0].message).toMatch(/Item not found/);
      await product(a, { sku: 'UNIQUE-1' });
      const taken = await as(a)
        .post('/products', { team: `/teams/${a.teamId}`, sku: 'UNIQUE-1' })
        .expect(422);
      expect(taken.body.violations[0]).toMatchObject({
        propertyPath: 'sku',
        message: 'This SKU is already used by another product of the team.',
      });
      // Another team may use the same SKU.
      await product(b, { sku: 'UNIQUE-1' });
      await as(a)
        .post('/products', { team: `/teams/${a.teamId}`, name: 12 })
        .expect(400);
    });

    it('keeps teams apart: another team’s product is 404 everywhere', async () => {
      const theirs = await product(b, { name: 'Secret' });
      await as(a).get(theirs['@id']).expect(404);
      await as(a).put(theirs['@id'], { name: 'x' }).expect(404);
      await as(a).delete(theirs['@id']).expect(404);
      await as(a).get(`${theirs['@id']}/product_variants`).expect(404);
      const list = await as(a).get('/products?itemsPerPage=500').expect(200);
      expect(list.body['hydra:member'].map((p: { id: string }) => p.id)).not.toContain(theirs.id);
    });

    it('filters by id, name, sku and dates, orders by name', async () => {
      const t = await createTenant(app);
      const p1 = await product(t, { name: 'Alpha', sku: 'A-1' });
      const p2 = await product(t, { name: 'Beta', sku: 'B-1' });
      await product(t, { name: 'Gamma' });
      const names = async (q: string) =>
        (await as(t).get(`/products?${q}`).expect(200)).body['hydra:member'].map(
          (p: { name: string }) => p.name,
        );
      expect(await names('order%5Bname%5D=asc')).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect(await names('order%5Bname%5D=desc')).toEqual(['Gamma', 'Beta', 'Alpha']);
      expect(await names('name=Beta')).toEqual(['Beta']);
      expect(await names('sku=A-1')).toEqual(['Alpha']);
      expect(await names(`id%5B%5D=${p1.id}&id%5B%5D=${p2.id}&order%5Bname%5D=asc`)).toEqual([
        'Alpha',
        'Beta',
      ]);
      expect(await names('createdAt%5Bafter%5D=2000-01-01&order%5Bname%5D=asc')).toHaveLength(3);
      expect(await names('createdAt%5Bbefore%5D=2000-01-01')).toEqual([]);
      const res = await as(t).get('/products').expect(200);
      expect(res.body['hydra:search']['hydra:template']).toContain('order[name]');
    });
  });

  describe('product variants', () => {
    it('creates a variant of a product, listed under the product, with a numeric price', async () => {
      const p = await product(a);
      const v = await variant(a, p['@id'], {
        sku: 'JACKET-BLACK',
        price: 9.99,
        imageUrl: 'https://shop.example/black.jpg',
      });
      expect(v).toMatchObject({
        '@type': 'ProductVariant',
        team: `/teams/${a.teamId}`,
        product: p['@id'],
        sku: 'JACKET-BLACK',
        price: 9.99,
        imageUrl: 'https://shop.example/black.jpg',
      });
      const defaulted = await variant(a, p['@id']);
      expect(defaulted.price).toBe(0);
      const nested = await as(a).get(`${p['@id']}/product_variants?order%5Bsku%5D=asc`).expect(200);
      expect(nested.body['hydra:totalItems']).toBe(2);
      const again = await as(a).get(p['@id']).expect(200);
      expect(again.body.productVariants.sort()).toEqual([v['@id'], defaulted['@id']].sort());
      const filtered = await as(a)
        .get(`/product_variants?product=${p.id}&sku=JACKET-BLACK`)
        .expect(200);
      expect(filtered.body['hydra:member'].map((x: { id: string }) => x.id)).toEqual([v.id]);
    });

    it('replaces only imageUrl and price; sku and product stay', async () => {
      const p = await product(a);
      const other = await product(a);
      const v = await variant(a, p['@id'], { sku: 'KEEP-SKU', price: 5 });
      const res = await as(a)
        .put(v['@id'], { price: 7.5, imageUrl: null, sku: 'CHANGED', product: other['@id'] })
        .expect(200);
      expect(res.body).toMatchObject({
        price: 7.5,
        imageUrl: null,
        sku: 'KEEP-SKU',
        product: p['@id'],
      });
      await as(a).put(v['@id'], { price: '7.5' }).expect(400);
      const negative = await as(a).put(v['@id'], { price: -1 }).expect(422);
      expect(negative.body.violations[0].propertyPath).toBe('price');
      await as(a).put(v['@id'], { price: 1e20 }).expect(422);
    });

    it('requires sku and product of the same team; SKU unique per team', async () => {
      const p = await product(a);
      const missing = await as(a)
        .post('/product_variants', { team: `/teams/${a.teamId}` })
        .expect(422);
      expect(
        missing.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort(),
      ).toEqual(['product', 'sku']);
      // A team the caller also belongs to, but not the product's.
      const theirs = await product(b);
      const cross = await as(a)
        .post('/product_variants', { team: `/teams/${a.teamId}`, product: theirs['@id'], sku: 'X' })
        .expect(422);
      expect(cross.body.violations[0]).toMatchObject({ propertyPath: 'product' });
      await variant(a, p['@id'], { sku: 'DUP-SKU' });
      const dup = await as(a)
        .post('/product_variants', {
          team: `/teams/${a.teamId}`,
          product: p['@id'],
          sku: 'DUP-SKU',
        })
        .expect(422);
      expect(dup.body.violations[0].propertyPath).toBe('sku');
    });

    it('refuses a product of another team of the same user', async () => {
      const c = await createTenant(app);
      const d = await createTenant(app);
      await app
        .get(DataSource)
        .query(`INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'owner')`, [
          d.teamId,
          c.userId,
        ]);
      const ofD = await product(d);
      const res = await as(c)
        .post('/product_variants', { team: `/teams/${c.teamId}`, product: ofD['@id'], sku: 'Y' })
        .expect(422);
      expect(res.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'product',
          message: 'The product must belong to the team of the variant.',
        }),
      ]);
      await as(c)
        .post('/product_variants', { team: `/teams/${d.teamId}`, product: ofD['@id'], sku: 'Y' })
        .expect(201);
    });

    it('goes with its product', async () => {
      const p = await product(a);
      const v = await variant(a, p['@id']);
      await as(a).delete(p['@id']).expect(204);
      await as(a).get(v['@id']).expect(404);
    });
  });

  describe('products feed', () => {
    const FEED = [
      'product_sku,sku,name,price,image_url,url',
      'TEE,TEE-S,T-shirt,10,,https://shop.example/tee',
      'TEE,TEE-M,,12.5,https://shop.example/tee-m.jpg,',
      ',MUG,Mug,4,,',
    ].join('\n');

    it('verifies an inline feed: columns, counts, preview cards', async () => {
      const res = await as(a).post('/products_feed/verify', { feed: FEED }).expect(200);
      expect(res.body).toMatchObject({
        '@type': 'VerifyProductsFeedResponse',
        accessible: true,
        verified: true,
        rowCount: 3,
        productCount: 2,
        variantCount: 3,
        errors: [],
      });
      expect(res.body.items[1]).toEqual({
        title: 'T-shirt',
        buttonUrl: 'https://shop.example/tee',
        imageUrl: 'https://shop.example/tee-m.jpg',
        regularPrice: '12.5',
        discountedPrice: null,
      });
      expect(res.body.columns[0]).toEqual({ name: 'product_sku', field: 'productSku' });
    });

    it('verifies an uploaded file and reports bad rows and unreadable files', async () => {
      const upload = (content: string | Buffer) =>
        request(app.getHttpServer())
          .post('/products_feed/verify')
          .set('Authorization', `Bearer ${a.token}`)
          .set('Accept', 'application/json')
          .attach('file', Buffer.from(content), 'feed.csv');
      const bad = await upload('sku;price\nA;1,5\nA;x\n').expect(200);
      expect(bad.body).toMatchObject({ accessible: true, verified: false, errorCount: 2 });
      expect(bad.body.errors).toEqual([
        { line: 3, column: 'sku', message: 'The SKU "A" appears twice (first on line 2).' },
        {
          line: 3,
          column: 'price',
          message: '"x" is not a price (a number of at most 4 decimals, >= 0).',
        },
      ]);
      const broken = await upload('sku,name\n"A,1\n').expect(200);
      expect(broken.body).toMatchObject({ accessible: false, verified: false });
      expect(broken.body.errors[0].message).toMatch(/not valid CSV/);
      const binary = await upload(Buffer.from([0xff, 0xfe, 0x00, 0x41])).expect(422);
      expect(binary.body.violations[0]).toMatchObject({ propertyPath: 'file' });
      const none = await as(a).post('/products_feed/verify', {}).expect(422);
      expect(none.body.violations[0].propertyPath).toBe('feed');
      await as(a).post('/products_feed/verify', { feed: 12 }).expect(400);
      await as(a).post('/products_feed/verify', { feed: FEED, feedType: 'xml' }).expect(422);
      await api(app).post('/products_feed/verify', { feed: FEED }).expect(401);
    });

    it('imports a feed into the team: upserts by SKU, reports counts, idempotent', async () => {
      const t = await createTenant(app);
      const first = await as(t)
        .post('/products_feed/import', { team: `/teams/${t.teamId}`, feed: FEED, feedType: 'csv' })
        .expect(200);
      expect(first.body).toMatchObject({
        '@type': 'ImportProductsFeedResponse',
        team: `/teams/${t.teamId}`,
        rowCount: 3,
        products: { created: 2, updated: 0, unchanged: 0 },
        productVariants: { created: 3, updated: 0, unchanged: 0 },
      });
      const again = await as(t)
        .post('/products_feed/import', { team: t.teamId, feed: FEED })
        .expect(200);
      expect(again.body.products).toEqual({ created: 0, updated: 0, unchanged: 2 });
      expect(again.body.productVariants).toEqual({ created: 0, updated: 0, unchanged: 3 });

      // A price change, a new variant; a feed without prices keeps the stored ones.
      const change = ['product_sku,sku,price', 'TEE,TEE-M,13', 'TEE,TEE-L,14'].join('\n');
      const changed = await as(t)
        .post('/products_feed/import', { team: t.teamId, feed: change })
        .expect(200);
      expect(changed.body.productVariants).toEqual({ created: 1, updated: 1, unchanged: 0 });
      expect(changed.body.products).toEqual({ created: 0, updated: 0, unchanged: 1 });
      await as(t)
        .post('/products_feed/import', { team: t.teamId, feed: 'sku,product_sku\nTEE-L,TEE' })
        .expect(200);

      const tee = await as(t).get('/products?sku=TEE').expect(200);
      expect(tee.body['hydra:member']).toHaveLength(1);
      expect(tee.body['hydra:member'][0]).toMatchObject({
        name: 'T-shirt',
        originUrl: 'https://shop.example/tee',
      });
      const variants = await as(t)
        .get(`${tee.body['hydra:member'][0]['@id']}/product_variants?order%5Bsku%5D=asc`)
        .expect(200);
      expect(
        variants.body['hydra:member'].map((v: { sku: string; price: number }) => [v.sku, v.price]),
      ).toEqual([
        ['TEE-L', 14],
        ['TEE-M', 13],
        ['TEE-S', 10],
      ]);
    });

    it('imports nothing from a feed with errors, and only into a visible team', async () => {
      const t = await createTenant(app);
      const res = await as(t)
        .post('/products_feed/import', { team: t.teamId, feed: 'sku,price\nOK,1\n,2\n' })
        .expect(422);
      expect(res.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'feed',
          message: 'Line 3, column "sku": This value should not be blank.',
        }),
      ]);
      const none = await as(t).get('/product_variants').expect(200);
      expect(none.body['hydra:totalItems']).toBe(0);
      const foreign = await as(t)
        .post('/products_feed/import', { team: `/teams/${b.teamId}`, feed: FEED })
        .expect(422);
      expect(foreign.body.violations[0].propertyPath).toBe('team');
      const noTeam = await as(t).post('/products_feed/import', { feed: FEED }).expect(422);
      expect(noTeam.body.violations[0].propertyPath).toBe('team');
    });

    it('imports through a multipart upload into the team of a tracking page', async () => {
      const t = await createTenant(app);
      const page = await as(t)
        .post('/tracking_pages', {
          workspace: `/workspaces/${t.workspaceId}`,
          subdomain: `feed-${Date.now().toString(36)}`,
        })
        .expect(201);
      const res = await request(app.getHttpServer())
        .post('/products_feed/import')
        .set('Authorization', `Bearer ${t.token}`)
        .set('Accept', 'application/ld+json')
        .field('trackingPageId', page.body.id)
        .attach('file', Buffer.from(FEED), 'feed.csv')
        .expect(200);
      expect(res.body.team).toBe(`/teams/${t.teamId}`);
      expect(res.body.productVariants.created).toBe(3);
      await as(a)
        .post('/products_feed/import', { trackingPageId: page.body.id, feed: FEED })
        .expect(422);
    });
  });
});
