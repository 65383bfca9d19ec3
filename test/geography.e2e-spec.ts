import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { GeographyCatalogueSync } from '../src/geography/geography-catalogue-sync';
import { countryCatalogue } from '../src/geography/geography-catalogue';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';

describe('geography and time: countries, states, time zones', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  const get = (path: string) => api(app, { token: tenant.token }).get(path);

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it('needs a token, like the rest of the API', async () => {
    for (const path of [
      '/countries',
      '/countries/US',
      '/countries/US/states',
      '/states',
      '/timezones',
    ]) {
      const res = await api(app).get(path).expect(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  describe('countries', () => {
    it('lists every ISO country by name, paginated', async () => {
      const res = await get('/countries').expect(200);
      expect(res.body['@context']).toBe('/contexts/Country');
      expect(res.body['hydra:totalItems']).toBe(countryCatalogue().length);
      expect(res.body['hydra:member']).toHaveLength(30);
      expect(res.body['hydra:member'][0]).toEqual({
        '@id': '/countries/AF',
        '@type': 'Country',
        code: 'AF',
        name: 'Afghanistan',
        preferred: false,
        stateful: false,
      });
      expect(res.body['hydra:view']['hydra:next']).toBe('/countries?page=2');
    });

    it('filters by code, code[], name, preferred and stateful', async () => {
      const one = await get('/countries?code=DE').expect(200);
      expect(one.body['hydra:member'].map((c: { code: string }) => c.code)).toEqual(['DE']);
      const many = await get('/countries?code%5B%5D=FR&code%5B%5D=BR&order%5Bcode%5D=asc').expect(
        200,
      );
      expect(many.body['hydra:member'].map((c: { code: string }) => c.code)).toEqual(['BR', 'FR']);
      const byName = await get('/countries?name=Canada').expect(200);
      expect(byName.body['hydra:member'][0].code).toBe('CA');
      const preferred = await get('/countries?preferred=true&itemsPerPage=100').expect(200);
      expect(preferred.body['hydra:member'].map((c: { code: string }) => c.code).sort()).toEqual([
        'AU',
        'CA',
        'DE',
        'FR',
        'GB',
        'US',
      ]);
      const stateful = await get('/countries?stateful=1&itemsPerPage=100').expect(200);
      expect(stateful.body['hydra:member'].map((c: { code: string }) => c.code).sort()).toEqual([
        'AU',
        'BR',
        'CA',
        'DE',
        'IN',
        'JP',
        'MX',
        'US',
      ]);
      expect(stateful.body['hydra:search']['hydra:template']).toContain('stateful');
    });

    it('serves one country by code; 404 for unknown codes', async () => {
      const res = await get('/countries/US').expect(200);
      expect(res.body).toMatchObject({
        '@context': '/contexts/Country',
        '@id': '/countries/US',
        code: 'US',
        name: 'United States of America',
        stateful: true,
      });
      const missing = await get('/countries/XX').expect(404);
      expect(missing.body['@type']).toBe('hydra:Error');
      await get('/countries/us').expect(404);
    });

    it('lists the states of a country; 404 for an unknown country', async () => {
      const res = await get('/countries/CA/states?itemsPerPage=50').expect(200);
      expect(res.body['@id']).toBe('/countries/CA/states');
      expect(res.body['hydra:totalItems']).toBe(13);
      expect(res.body['hydra:member'][0]).toEqual({
        '@id': '/states/CA-AB',
        '@type': 'State',
        code: 'CA-AB',
        name: 'Alberta',
        countryCode: 'CA',
      });
      const filtered = await get('/countries/US/states?name=Texas').expect(200);
      expect(filtered.body['hydra:member'].map((s: { code: string }) => s.code)).toEqual(['US-TX']);
      // Filters never escape the country scope.
      const other = await get('/countries/US/states?countryCode=DE').expect(200);
      expect(other.body['hydra:totalItems']).toBe(0);
      const none = await get('/countries/FR/states').expect(200);
      expect(none.body['hydra:member']).toEqual([]);
      await get('/countries/XX/states').expect(404);
    });
  });

  describe('states', () => {
    it('lists all states, filters by country and code, serves one', async () => {
      const all = await get('/states').expect(200);
      expect(all.body['hydra:totalItems']).toBeGreaterThan(230);
      const german = await get('/states?countryCode=DE&itemsPerPage=100').expect(200);
      expect(german.body['hydra:totalItems']).toBe(16);
      const two = await get('/states?code%5B%5D=MX-CMX&code%5B%5D=BR-SP').expect(200);
      expect(two.body['hydra:member'].map((s: { name: string }) => s.name).sort()).toEqual([
        'Ciudad de México',
        'São Paulo',
      ]);
      const one = await get('/states/IN-TS').expect(200);
      expect(one.body).toMatchObject({
        '@id': '/states/IN-TS',
        name: 'Telangana',
        countryCode: 'IN',
      });
      await get('/states/US-XX').expect(404);
    });
  });

  describe('time zones', () => {
    it('lists IANA zones with their current UTC offset, IRIs percent-encoded', async () => {
      const res = await get('/timezones?code%5B%5D=UTC&code%5B%5D=Asia%2FKolkata').expect(200);
      expect(res.body['hydra:member']).toEqual([
        {
          '@id': '/timezones/Asia%2FKolkata',
          '@type': 'Timezone',
          code: 'Asia/Kolkata',
          name: 'Asia/Kolkata',
          utcOffset: '+05:30',
        },
        {
          '@id': '/timezones/UTC',
          '@type': 'Timezone',
          code: 'UTC',
          name: 'UTC',
          utcOffset: '+00:00',
        },
      ]);
      const all = await get('/timezones?itemsPerPage=500').expect(200);
      expect(all.body['hydra:totalItems']).toBeGreaterThan(300);
      for (const zone of all.body['hydra:member'])
        expect(zone.utcOffset).toMatch(/^[+-]\d{2}:\d{2}$/);
    });

    it('follows daylight saving time: the offset is computed when read', async () => {
      const res = await get('/timezones/America%2FNew_York').expect(200);
      const now = new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/New_York',
        timeZoneName: 'longOffset',
      })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName')!.value; // "GMT-04:00" in summer
      expect(res.body).toEqual({
        '@context': '/contexts/Timezone',
        '@id': '/timezones/America%2FNew_York',
        '@type': 'Timezone',
        code: 'America/New_York',
        name: 'America/New York',
        utcOffset: now.replace('GMT', ''),
      });
    });

    it('serves zones with several slashes, and 404 for unknown zones', async () => {
      const res = await get('/timezones/America%2FArgentina%2FBuenos_Aires').expect(200);
      expect(res.body.utcOffset).toBe('-03:00');
      await get('/timezones/Mars%2FOlympus_Mons').expect(404);
      await get('/timezones/Europe').expect(404);
    });

    it('filters by offset', async () => {
      const res = await get('/timezones?utcOffset=%2B05:45').expect(200);
      expect(res.body['hydra:member'].map((z: { code: string }) => z.code)).toContain(
        'Asia/Kathmandu',
      );
    });
  });

  it('start-up sync is idempotent and repairs drift', async () => {
    const sync = app.get(GeographyCatalogueSync);
    expect(await sync.sync()).toBe(0);
    const db = app.get(DataSource);
    await db.query(`UPDATE country SET name = 'Wrong' WHERE code = 'FR'`);
    await db.query(
      `INSERT INTO state (code, name, country_code) VALUES ('FR-XX', 'Nowhere', 'FR')`,
    );
    await db.query(`DELETE FROM timezone WHERE code = 'Europe/Paris'`);
    expect(await sync.sync()).toBe(3);
    const fr = await get('/countries/FR').expect(200);
    expect(fr.body.name).toBe('France');
    await get('/states/FR-XX').expect(404);
    await get('/timezones/Europe%2FParis').expect(200);
  });
});
