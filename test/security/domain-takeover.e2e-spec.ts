import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { uniqueSubdomain } from '../factories/media.factory';
import { createTenant, Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { startDns, type Records } from '../support/dns-server';
import { api } from '../support/http';

/**
 * Issue 22 item 11b, a suspicion: a custom domain verified by its CNAME alone goes to whichever
 * tenant claims it first, so a CNAME left pointing at the service (a tenant that moved on)
 * hands the domain to the next tenant who asks. Ownership is now a TXT record holding a token
 * of the tracking page, beside the CNAME that routes the traffic.
 */
describe('security: custom domain takeover', () => {
  let app: NestExpressApplication;
  let dns: Socket;
  const zone = new Map<string, Records>();
  const TARGET = 'pages.tracking.test';

  beforeAll(async () => {
    zone.set(TARGET, { A: ['127.0.0.1'] });
    dns = await startDns(zone);
    Object.assign(process.env, {
      DNS_SERVERS: `127.0.0.1:${(dns.address() as AddressInfo).port}`,
      CUSTOM_DOMAIN_CNAME_TARGET: TARGET,
    });
    app = await createTestApp();
  });
  afterAll(async () => {
    await closeTestApp(app);
    dns.close();
  });

  const as = (t: Tenant) => api(app, { token: t.token });
  const domainName = (label: string) => `${label}-${randomBytes(4).toString('hex')}.shop.test`;

  async function page(t: Tenant, domain: string | null): Promise<string> {
    const res = await as(t)
      .post('/tracking_pages', {
        workspace: `/workspaces/${t.workspaceId}`,
        subdomain: uniqueSubdomain('dom'),
        domain,
      })
      .expect(201);
    return res.body.id;
  }
  const verify = (t: Tenant, domain: string) =>
    as(t).post('/domain/verify', { domain }).expect(200);
  const enabled = async (t: Tenant, pageId: string) =>
    (await as(t).get(`/tracking_pages/${pageId}`).expect(200)).body.domainEnabled as boolean;

  it('a stale CNAME gives the domain to nobody; the TXT token of the owner’s page does', async () => {
    const domain = domainName('stale');
    // Someone's shop pointed its domain at the service once, and left the CNAME behind.
    zone.set(domain, { CNAME: TARGET });
    const squatter = await createTenant(app);
    const squatterPage = await page(squatter, domain);
    const tried = await verify(squatter, domain);
    expect(tried.body).toMatchObject({ accessible: true, cname: true, verified: false });
    expect(await enabled(squatter, squatterPage)).toBe(false);

    // The domain's owner claims it too (an unverified claim blocks nobody) and proves it.
    const owner = await createTenant(app);
    const ownerPage = await page(owner, domain);
    const asked = await verify(owner, domain);
    expect(asked.body).toMatchObject({ verified: false, method: null });
    const { name, value } = asked.body.expected.txt;
    expect(name).toBe(`_tracking-page.${domain}`);
    expect(value).toMatch(/^tracking-page-verification=[0-9a-f]{32}$/);
    expect(value).not.toContain(ownerPage);
    expect(tried.body.expected.txt.value).not.toBe(value);
    zone.set(name, { TXT: [value] });
    const proven = await verify(owner, domain);
    expect(proven.body).toMatchObject({ verified: true, method: 'txt', cname: true });
    expect(await enabled(owner, ownerPage)).toBe(true);

    // The owner's record proves nothing for another page.
    expect((await verify(squatter, domain)).body.verified).toBe(false);
    expect(await enabled(squatter, squatterPage)).toBe(false);
    // A claim of the verified domain changes nothing until it is proven (as the big hosts do).
    const late = await createTenant(app);
    const latePage = await page(late, domain);
    expect((await verify(late, domain)).body.verified).toBe(false);
    expect(await enabled(late, latePage)).toBe(false);
    expect(await enabled(owner, ownerPage)).toBe(true);
  });

  it('a page id in TXT is no proof (ids are not secret)', async () => {
    const t = await createTenant(app);
    const domain = domainName('byid');
    const pageId = await page(t, domain);
    zone.set(domain, { A: ['127.0.0.1'] });
    zone.set(`_tracking-page.${domain}`, { TXT: [`tracking-page=${pageId}`, pageId] });
    const res = await verify(t, domain);
    expect(res.body).toMatchObject({ verified: false, cname: false });
  });

  it('a verified page that changes its domain is not verified for the new one', async () => {
    const t = await createTenant(app);
    const first = domainName('first');
    const pageId = await page(t, first);
    const { value } = (await verify(t, first)).body.expected.txt;
    zone.set(first, { CNAME: TARGET });
    zone.set(`_tracking-page.${first}`, { TXT: [value] });
    expect((await verify(t, first)).body.verified).toBe(true);
    expect(await enabled(t, pageId)).toBe(true);
    // Another domain still pointing at the service (somebody else's, or the tenant's own).
    const second = domainName('second');
    zone.set(second, { CNAME: TARGET });
    await as(t).put(`/tracking_pages/${pageId}`, { domain: second }).expect(200);
    expect(await enabled(t, pageId)).toBe(false);
  });

  it('the latest proof wins: a domain whose TXT moved to another page leaves the first', async () => {
    const before = await createTenant(app);
    const after = await createTenant(app);
    const domain = domainName('moved');
    zone.set(domain, { CNAME: TARGET });
    const beforePage = await page(before, domain);
    const txt = `_tracking-page.${domain}`;
    zone.set(txt, { TXT: [(await verify(before, domain)).body.expected.txt.value] });
    expect((await verify(before, domain)).body.verified).toBe(true);

    // The domain is sold: the new owner claims it and replaces the TXT record.
    const afterPage = await page(after, domain);
    zone.set(txt, { TXT: [(await verify(after, domain)).body.expected.txt.value] });
    expect((await verify(after, domain)).body.verified).toBe(true);
    expect(await enabled(after, afterPage)).toBe(true);
    expect(await enabled(before, beforePage)).toBe(false);
    expect((await verify(before, domain)).body.verified).toBe(false);
  });
});
