import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { CarrierCatalogueSync } from '../src/carriers/carrier-catalogue-sync';
import { CARRIERS } from '../src/tracking/carriers';
import { TRACKING_STATUSES } from '../src/tracking/statuses';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('public catalogues: carriers and tracking statuses', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));

  describe('GET /public/carriers', () => {
    it('lists the whole catalogue without a token, paginated by 30, ordered by name', async () => {
      const res = await api(app).get('/public/carriers').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
      expect(res.body['@context']).toBe('/contexts/Carrier');
      expect(res.body['@type']).toBe('hydra:Collection');
      expect(res.body['hydra:totalItems']).toBe(CARRIERS.length);
      const members = res.body['hydra:member'];
      expect(members).toHaveLength(30);
      const names = members.map((m: { name: string }) => m.name);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(res.body['hydra:view']).toMatchObject({
        '@id': '/public/carriers?page=1',
        'hydra:first': '/public/carriers?page=1',
        'hydra:last': `/public/carriers?page=${Math.ceil(CARRIERS.length / 30)}`,
        'hydra:next': '/public/carriers?page=2',
      });
    });

    /** The UPS member of the whole catalogue's page, with these query parameters. */
    const upsMember = async (query = '') => {
      const res = await api(app).get(`/public/carriers?itemsPerPage=500${query}`).expect(200);
      return {
        page: res.body,
        ups: res.body['hydra:member'].find((m: { code: string }) => m.code === 'ups'),
      };
    };

    it('shows code and name of each member unless groups[] names getCarrier', async () => {
      const { page, ups } = await upsMember();
      expect(ups).toEqual({
        '@id': '/public/carriers/ups',
        '@type': 'Carrier',
        code: 'ups',
        name: 'UPS',
      });
      const ignored = await api(app)
        .get('/public/carriers?groups%5B%5D=getOrder&itemsPerPage=1')
        .expect(200);
      expect(Object.keys(ignored.body['hydra:member'][0])).toEqual([
        '@id',
        '@type',
        'code',
        'name',
      ]);
      expect(page['hydra:search']['hydra:mapping']).toContainEqual({
        '@type': 'IriTemplateMapping',
        variable: 'groups[]',
        property: null,
        required: false,
      });
      const item = await api(app).get('/public/carriers/ups').expect(200);
      expect(item.body).toMatchObject({ phone: '+18007425877', countryIso2Codes: ['US'] });
    });

    it('accepts groups[]=getCarrier and shows every field of a member', async () => {
      const { page, ups } = await upsMember('&groups%5B%5D=getCarrier');
      expect(ups).toEqual({
        '@id': '/public/carriers/ups',
        '@type': 'Carrier',
        code: 'ups',
        name: 'UPS',
        phone: '+18007425877',
        url: 'https://www.ups.com',
        image: null,
        countryIso2Codes: ['US'],
        description: 'United Parcel Service.',
        trackingUrlTemplate: 'https://www.ups.com/track?tracknum={trackingNumber}',
      });
      expect(page['hydra:member']).toHaveLength(CARRIERS.length);
    });

    it('serves one carrier by code, and 404 for an unknown code', async () => {
      const res = await api(app).get('/public/carriers/tm-test').expect(200);
      expect(res.body).toMatchObject({
        '@context': '/contexts/Carrier',
        '@id': '/public/carriers/tm-test',
        '@type': 'Carrier',
        code: 'tm-test',
      });
      const missing = await api(app).get('/public/carriers/no-such-carrier').expect(404);
      expect(missing.body['@type']).toBe('hydra:Error');
      await api(app)
        .get(`/public/carriers/${'x'.repeat(300)}`)
        .expect(404);
      await api(app).get('/public/carriers/%2Fups').expect(404);
    });

    it('answers plain JSON as a bare array', async () => {
      const res = await api(app).json().get('/public/carriers?itemsPerPage=2').expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(2);
      expect(res.body[0]['@id']).toBeUndefined();
    });

    it('rejects bad pagination with 400', async () => {
      await api(app).get('/public/carriers?page=0').expect(400);
      await api(app).get('/public/carriers?itemsPerPage=-1').expect(400);
    });

    it('is re-synchronised idempotently: a changed or stray row is repaired', async () => {
      const db = app.get(DataSource);
      const sync = app.get(CarrierCatalogueSync);
      expect(await sync.sync()).toBe(0);
      await db.query(`UPDATE carrier SET name = 'Wrong' WHERE code = 'ups'`);
      await db.query(`INSERT INTO carrier (code, name) VALUES ('gone-carrier', 'Gone')`);
      expect(await sync.sync()).toBe(2);
      const [row] = await db.query(`SELECT name FROM carrier WHERE code = 'ups'`);
      expect(row.name).toBe('UPS');
      await api(app).get('/public/carriers/gone-carrier').expect(404);
    });
  });

  describe('GET /public/tracking_statuses', () => {
    it('lists the twelve statuses in catalogue order without a token', async () => {
      const res = await api(app).get('/public/tracking_statuses').expect(200);
      expect(res.body['hydra:totalItems']).toBe(12);
      expect(res.body['hydra:member'].map((m: { code: string }) => m.code)).toEqual(
        TRACKING_STATUSES.map((s) => s.code),
      );
      expect(res.body['hydra:member'][0]).toEqual({
        '@id': '/public/tracking_statuses/pre_transit',
        '@type': 'TrackingStatus',
        code: 'pre_transit',
        title: TRACKING_STATUSES[0].title,
        description: TRACKING_STATUSES[0].description,
      });
    });

    it('serves one status by code, and 404 for an unknown one', async () => {
      const res = await api(app).get('/public/tracking_statuses/delivered').expect(200);
      expect(res.body).toMatchObject({
        '@context': '/contexts/TrackingStatus',
        '@id': '/public/tracking_statuses/delivered',
        code: 'delivered',
        title: 'Delivered',
      });
      await api(app).get('/public/tracking_statuses/lost').expect(404);
    });
  });
});
