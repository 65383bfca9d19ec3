import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { startDns, type Records } from './support/dns-server';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import { joinTeam } from './factories/identity.factory';

/**
 * POST /domain/verify against a tiny authoritative DNS server on 127.0.0.1
 * (test/support/dns-server.ts) that the service's resolver is pointed at through DNS_SERVERS.
 */

describe('POST /domain/verify', () => {
  let app: NestExpressApplication;
  let db: DataSource;
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
    db = app.get(DataSource);
  });

  afterAll(async () => {
    await closeTestApp(app);
    dns.close();
  });

  async function pageWithDomain(t: Tenant, domain: string): Promise<string> {
    const [page] = await db.query(
      `INSERT INTO tracking_page (workspace_id, subdomain, domain) VALUES ($1, $2, $3) RETURNING id`,
      [t.workspaceId, `p-${randomBytes(5).toString('hex')}`, domain],
    );
    return page.id;
  }

  /** The TXT value proving the page's claim (its random token). */
  async function proofOf(pageId: string): Promise<string> {
    const [page] = await db.query(`SELECT domain_token FROM tracking_page WHERE id = $1`, [pageId]);
    return `tracking-page-verification=${page.domain_token}`;
  }

  const domainName = (label: string) => `${label}-${randomBytes(4).toString('hex')}.shop.test`;

  it('verifies a domain by the page’s TXT token beside its CNAME, and enables it', async () => {
    const t = await createTenant(app);
    const domain = domainName('track');
    const pageId = await pageWithDomain(t, domain);
    const proof = await proofOf(pageId);
    expect(proof).toMatch(/^tracking-page-verification=[0-9a-f]{32}$/);
    zone.set(domain, { CNAME: TARGET });
    zone.set(`_tracking-page.${domain}`, { TXT: [proof] });
    const res = await api(app, { token: t.token })
      .post('/domain/verify', { domain: `${domain.toUpperCase()}.` })
      .expect(200);
    expect(res.body).toMatchObject({
      '@type': 'DomainVerificationState',
      domain,
      trackingPage: `/tracking_pages/${pageId}`,
      accessible: true,
      cname: true,
      verified: true,
      // Nothing serves HTTPS for it here: no valid certificate.
      ssl: false,
      method: 'txt',
      expected: {
        cname: TARGET,
        txt: { name: `_tracking-page.${domain}`, value: proof },
      },
    });
    const page = await api(app, { token: t.token }).get(`/tracking_pages/${pageId}`).expect(200);
    expect(page.body.domainEnabled).toBe(true);
    const [row] = await db.query(
      `SELECT verified, accessible, method, records, checked_by FROM domain_verification WHERE tracking_page_id = $1`,
      [pageId],
    );
    expect(row).toEqual({
      verified: true,
      accessible: true,
      method: 'txt',
      records: { cname: [TARGET], txt: [proof], addresses: ['127.0.0.1'] },
      checked_by: t.userId,
    });

    // The domain moves elsewhere, its record gone: the next check disables it.
    zone.set(domain, { CNAME: 'elsewhere.test' });
    zone.delete(`_tracking-page.${domain}`);
    const again = await api(app, { token: t.token }).post('/domain/verify', { domain }).expect(200);
    expect(again.body).toMatchObject({
      verified: false,
      accessible: false,
      cname: false,
      method: null,
    });
    const after = await api(app, { token: t.token }).get(`/tracking_pages/${pageId}`).expect(200);
    expect(after.body.domainEnabled).toBe(false);
  });

  it('verifies an apex domain by its TXT proof', async () => {
    const t = await createTenant(app);
    const domain = domainName('apex');
    const pageId = await pageWithDomain(t, domain);
    zone.set(domain, { A: ['127.0.0.1'] });
    zone.set(`_tracking-page.${domain}`, { TXT: ['v=spf1 -all', await proofOf(pageId)] });
    const res = await api(app, { token: t.token })
      .json()
      .post('/domain/verify', { domain })
      .expect(200);
    expect(res.body).toMatchObject({
      accessible: true,
      cname: false,
      verified: true,
      method: 'txt',
      ssl: false,
    });
  });

  it('reports a domain without records as neither accessible nor verified', async () => {
    const t = await createTenant(app);
    const domain = domainName('nowhere');
    await pageWithDomain(t, domain);
    const res = await api(app, { token: t.token }).post('/domain/verify', { domain }).expect(200);
    expect(res.body).toMatchObject({ accessible: false, verified: false, ssl: false });
  });

  it('answers another tenant’s domain like one nobody uses, and refuses bad input', async () => {
    const owner = await createTenant(app);
    const stranger = await createTenant(app);
    const domain = domainName('mine');
    const pageId = await pageWithDomain(owner, domain);
    zone.set(domain, { CNAME: TARGET });
    const foreign = await api(app, { token: stranger.token })
      .post('/domain/verify', { domain })
      .expect(422);
    const unused = await api(app, { token: stranger.token })
      .post('/domain/verify', { domain: domainName('unused') })
      .expect(422);
    expect(foreign.body.violations).toEqual(unused.body.violations);
    expect(foreign.body.violations[0]).toMatchObject({
      propertyPath: 'domain',
      message:
        'None of your tracking pages uses this domain: set it as a tracking page domain first.',
    });
    const [count] = await db.query(
      `SELECT count(*)::int AS n FROM domain_verification WHERE tracking_page_id = $1`,
      [pageId],
    );
    expect(count.n).toBe(0);

    const as = api(app, { token: owner.token });
    await as.post('/domain/verify', {}).expect(422);
    await as.post('/domain/verify', { domain: 12 }).expect(400);
    const bad = await as.post('/domain/verify', { domain: 'not a domain' }).expect(422);
    expect(bad.body.violations[0].message).toBe('This value is not a valid host name.');
    await api(app).post('/domain/verify', { domain }).expect(401);

    // Read-only members of the workspace may not change the page.
    const reader = await joinTeam(app, owner, 'member');
    await db.query(
      `INSERT INTO workspace_member (workspace_id, user_id, access_level) VALUES ($1, $2, 'read')`,
      [owner.workspaceId, reader.userId],
    );
    await api(app, { token: reader.token }).post('/domain/verify', { domain }).expect(403);
  });
});
