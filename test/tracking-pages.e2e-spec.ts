import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { TrackingPageBuilderDefaults1766400000000 } from '../migrations/1766400000000-TrackingPageBuilderDefaults';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { uniqueSubdomain } from './factories/media.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('tracking pages', () => {
  let app: NestExpressApplication;
  let t: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));
  beforeEach(async () => {
    t = await createTenant(app);
  });

  const create = (tenant: Tenant, body: Record<string, unknown> = {}) =>
    api(app, { token: tenant.token }).post('/tracking_pages', {
      workspace: `/workspaces/${tenant.workspaceId}`,
      subdomain: uniqueSubdomain(),
      ...body,
    });

  it('creates, reads, replaces and deletes a page', async () => {
    const res = await create(t, { title: 'Track', domain: 'Track.Example.com' }).expect(201);
    expect(res.body).toMatchObject({
      '@type': 'TrackingPage',
      workspace: `/workspaces/${t.workspaceId}`,
      title: 'Track',
      enabled: true,
      reviewsEnabled: true,
      domain: 'track.example.com',
      domainEnabled: false,
      // Every member of the reference's Builder, at its default.
      builder: {
        background: { color: null, useBackgroundImage: null, imageUrl: null, backgroundMode: null },
        card: { backgroundColor: null, font: { fontFamily: null, customFontUsed: null } },
        searchButton: { on: null, font: { fontColor: null } },
        footer: { hideTrackmageBranding: null, links: null },
        mainProductsFeed: { card: { title: { alignment: null } }, productItems: null },
        seoTitle: null,
      },
      dropshipperSettings: { enabled: false, hideHieroglyphs: false },
      customThemeId: null,
      usedByDefault: true,
    });
    const ws = await api(app, { token: t.token }).get(`/workspaces/${t.workspaceId}`).expect(200);
    expect(ws.body.defaultTrackingPage).toBe(res.body['@id']);

    const put = await api(app, { token: t.token })
      .put(res.body['@id'], {
        subdomain: res.body.subdomain,
        title: 'Renamed',
        workspace: '/workspaces/ignored',
      })
      .expect(200);
    expect(put.body).toMatchObject({ title: 'Renamed', workspace: `/workspaces/${t.workspaceId}` });

    await api(app, { token: t.token }).delete(res.body['@id']).expect(204);
    await api(app, { token: t.token }).get(res.body['@id']).expect(404);
    const after = await api(app, { token: t.token }).get(`/workspaces/${t.workspaceId}`);
    expect(after.body.defaultTrackingPage).toBeNull();
  });

  it('lists per workspace and per team, scoped to the caller', async () => {
    const second = await addWorkspace(app, t);
    const a = await create(t).expect(201);
    await create(t, { workspace: `/workspaces/${second}` }).expect(201);
    const other = await createTenant(app);
    await create(other).expect(201);

    const all = await api(app, { token: t.token }).get('/tracking_pages').expect(200);
    expect(all.body['hydra:totalItems']).toBe(2);
    const one = await api(app, { token: t.token })
      .get(`/workspaces/${t.workspaceId}/tracking_pages`)
      .expect(200);
    expect(one.body['hydra:member'].map((m: any) => m['@id'])).toEqual([a.body['@id']]);
    const team = await api(app, { token: t.token })
      .get(`/teams/${t.teamId}/workspaces/${t.workspaceId}/tracking_pages`)
      .expect(200);
    expect(team.body['hydra:totalItems']).toBe(1);
    await api(app, { token: t.token })
      .get(`/workspaces/${other.workspaceId}/tracking_pages`)
      .expect(404);
    await api(app, { token: t.token })
      .get(`/teams/${other.teamId}/workspaces/${t.workspaceId}/tracking_pages`)
      .expect(404);
  });

  it('validates subdomain, domain, builder colours and dropshipper settings', async () => {
    const res = await create(t, {
      subdomain: 'UPPER',
      domain: 'not a host',
      builder: { card: { backgroundColor: 'blue' } },
      dropshipperSettings: { originCountryReplacement: 'CHN' },
    }).expect(422);
    expect(res.body.violations.map((v: any) => v.propertyPath).sort()).toEqual([
      'builder.card.backgroundColor',
      'domain',
      'dropshipperSettings.originCountryReplacement',
      'subdomain',
    ]);
    const missing = await create(t, { subdomain: undefined, workspace: undefined }).expect(422);
    expect(missing.body.violations.map((v: any) => v.propertyPath).sort()).toEqual([
      'subdomain',
      'workspace',
    ]);
    await create(t, { enabled: 'yes' }).expect(400);
    await create(t, { builder: 'x' }).expect(400);
    const mistyped = await create(t, { builder: { logo: { on: 'yes' } } }).expect(400);
    expect(mistyped.body['hydra:description']).toBe(
      'The type of the "builder.logo.on" attribute must be "bool", "string" given.',
    );
  });

  it('fills the builders of pages stored before the defaults (migration)', async () => {
    const page = await create(t).expect(201);
    const db = app.get(DataSource);
    await db.query(`UPDATE tracking_page SET builder = $2 WHERE id = $1`, [
      page.body.id,
      JSON.stringify({ card: { backgroundColor: '#ffffff' }, own: 1 }),
    ]);
    const runner = db.createQueryRunner();
    try {
      await new TrackingPageBuilderDefaults1766400000000().up(runner);
    } finally {
      await runner.release();
    }
    const read = await api(app, { token: t.token }).get(page.body['@id']).expect(200);
    expect(read.body.builder).toMatchObject({
      card: { backgroundColor: '#ffffff', linksColor: null, font: { fontFamily: null } },
      own: 1,
      seoTitle: null,
    });
  });

  it('keeps the builder members it is given, its editor’s own ones too, and fills the rest', async () => {
    const res = await create(t, {
      builder: {
        logo: { on: false },
        seoTitle: 'Where is my parcel',
        general: { fontFamily: 'Merriweather' },
      },
    }).expect(201);
    expect(res.body.builder).toMatchObject({
      logo: { on: false, imageUrl: null, linkUrl: null },
      seoTitle: 'Where is my parcel',
      general: { fontFamily: 'Merriweather' },
      header: { backgroundColor: null },
    });
    const put = await api(app, { token: t.token })
      .put(res.body['@id'], { builder: { header: { backgroundColor: '#112233' } } })
      .expect(200);
    expect(put.body.builder).toMatchObject({
      header: { backgroundColor: '#112233' },
      logo: { on: null },
      seoTitle: null,
    });
  });

  it('keeps subdomains unique across tenants; a domain goes to the page that proves it', async () => {
    const first = await create(t, { domain: 'shop-a.example.com' }).expect(201);
    const other = await createTenant(app);
    const res = await create(other, {
      subdomain: first.body.subdomain,
      domain: 'SHOP-A.example.com',
    }).expect(422);
    expect(res.body.violations.map((v: any) => v.message)).toEqual([
      'This subdomain is already taken.',
    ]);
    // Claims are free; POST /domain/verify enables one (test/security/domain-takeover).
    const claim = await create(other, { domain: 'SHOP-A.example.com' }).expect(201);
    expect(claim.body).toMatchObject({ domain: 'shop-a.example.com', domainEnabled: false });
  });

  it('answers 404 for another tenant’s page on every route', async () => {
    const other = await createTenant(app);
    const page = await create(other).expect(201);
    const id = page.body['@id'];
    const as = api(app, { token: t.token });
    await as.get(id).expect(404);
    await as.put(id, { subdomain: uniqueSubdomain() }).expect(404);
    await as.delete(id).expect(404);
    await as.get(`${id}/custom_theme`).expect(404);
    await as.post(`${id}/regenerate_custom_theme`, {}).expect(404);
    await create(t, { workspace: `/workspaces/${other.workspaceId}` }).expect(422);
  });

  it('derives the custom theme from the builder and regenerates it', async () => {
    const page = await create(t, {
      builder: { card: { backgroundColor: '#ffffff', borderRadius: 6 } },
    }).expect(201);
    const live = await api(app, { token: t.token })
      .get(`${page.body['@id']}/custom_theme`)
      .expect(200);
    expect(live.body).toMatchObject({
      '@type': 'CustomTheme',
      id: null,
      variables: { '--tp-card-background-color': '#ffffff', '--tp-card-border-radius': '6px' },
    });
    expect(live.body.css).toContain('--tp-card-background-color: #ffffff;');

    const regen = await api(app, { token: t.token })
      .post(`${page.body['@id']}/regenerate_custom_theme`, {})
      .expect(201);
    expect(regen.body['@type']).toBe('TrackingPage');
    expect(regen.body.customThemeId).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await api(app, { token: t.token })
      .get(`${page.body['@id']}/custom_theme`)
      .expect(200);
    expect(stored.body.id).toBe(regen.body.customThemeId);
  });

  it('checks whether a subdomain is valid and free', async () => {
    const taken = await create(t).expect(201);
    const as = api(app, { token: t.token });
    const free = await as.post('/subdomain/check', { subdomain: uniqueSubdomain() }).expect(200);
    expect(free.body).toMatchObject({ '@type': 'SubdomainCheckResponse', available: true });
    const used = await as.post('/subdomain/check', { subdomain: taken.body.subdomain }).expect(200);
    expect(used.body.available).toBe(false);
    const json = await as.json().post('/subdomain/check', { subdomain: 'www' }).expect(200);
    expect(json.body).toEqual({ subdomain: 'www', available: false });
    const bad = await as.post('/subdomain/check', { subdomain: 'Not_Valid' }).expect(422);
    expect(bad.body.violations[0].propertyPath).toBe('subdomain');
    await as.post('/subdomain/check', {}).expect(422);
    await as.post('/subdomain/check', { subdomain: 12 }).expect(400);
    await api(app).post('/subdomain/check', { subdomain: 'abc' }).expect(401);
  });
});
