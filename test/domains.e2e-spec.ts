import type { NestExpressApplication } from '@nestjs/platform-express';
import { createSocket, Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import { joinTeam } from './factories/identity.factory';

/**
 * POST /domain/verify against a tiny authoritative DNS server on 127.0.0.1 (UDP, RFC 1035
 * messages: A, AAAA, CNAME and TXT answers, NXDOMAIN for unknown names) that the service's
 * resolver is pointed at through DNS_SERVERS.
 */

type Records = { A?: string[]; CNAME?: string; TXT?: string[] };
const TYPES: Record<number, 'A' | 'AAAA' | 'CNAME' | 'TXT'> = {
  1: 'A',
  28: 'AAAA',
  5: 'CNAME',
  16: 'TXT',
};
const CODES = { A: 1, CNAME: 5, TXT: 16 } as const;

function encodeName(name: string): Buffer {
  const parts = name
    .split('.')
    .filter(Boolean)
    .map((label) => {
      const b = Buffer.from(label, 'ascii');
      return Buffer.concat([Buffer.from([b.length]), b]);
    });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
    i += msg[i] + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function record(name: string, type: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(1, 2); // IN
  fixed.writeUInt32BE(60, 4); // TTL
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([encodeName(name), fixed, rdata]);
}

/** Answers from `zone`; follows one CNAME for A questions like a recursive resolver would. */
function startDns(zone: Map<string, Records>): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    const question = msg.subarray(12, end + 4);
    const entry = zone.get(name);
    const answers: Buffer[] = [];
    const type = TYPES[qtype];
    if (entry && type === 'CNAME' && entry.CNAME)
      answers.push(record(name, CODES.CNAME, encodeName(entry.CNAME)));
    if (entry && type === 'TXT')
      for (const t of entry.TXT ?? []) {
        const b = Buffer.from(t, 'utf8');
        answers.push(record(name, CODES.TXT, Buffer.concat([Buffer.from([b.length]), b])));
      }
    if (entry && type === 'A') {
      let owner = name;
      let target: Records | undefined = entry;
      if (entry.CNAME) {
        answers.push(record(name, CODES.CNAME, encodeName(entry.CNAME)));
        owner = entry.CNAME;
        target = zone.get(entry.CNAME);
      }
      for (const a of target?.A ?? [])
        answers.push(record(owner, CODES.A, Buffer.from(a.split('.').map(Number))));
    }
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(entry ? 0x8180 : 0x8183, 2); // response, RD, RA; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address);
  });
  return new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket)));
}

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

  const domainName = (label: string) => `${label}-${randomBytes(4).toString('hex')}.shop.test`;

  it('verifies a domain whose CNAME points at the service, and enables it', async () => {
    const t = await createTenant(app);
    const domain = domainName('track');
    const pageId = await pageWithDomain(t, domain);
    zone.set(domain, { CNAME: TARGET });
    const res = await api(app, { token: t.token })
      .post('/domain/verify', { domain: `${domain.toUpperCase()}.` })
      .expect(200);
    expect(res.body).toMatchObject({
      '@type': 'DomainVerificationState',
      domain,
      trackingPage: `/tracking_pages/${pageId}`,
      accessible: true,
      verified: true,
      // Nothing serves HTTPS for it here: no valid certificate.
      ssl: false,
      method: 'cname',
      expected: {
        cname: TARGET,
        txt: { name: `_tracking-page.${domain}`, value: `tracking-page=${pageId}` },
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
      method: 'cname',
      records: { cname: [TARGET], txt: [], addresses: ['127.0.0.1'] },
      checked_by: t.userId,
    });

    // The domain moves elsewhere: the next check disables it.
    zone.set(domain, { CNAME: 'elsewhere.test' });
    const again = await api(app, { token: t.token }).post('/domain/verify', { domain }).expect(200);
    expect(again.body).toMatchObject({ verified: false, accessible: false, method: null });
    const after = await api(app, { token: t.token }).get(`/tracking_pages/${pageId}`).expect(200);
    expect(after.body.domainEnabled).toBe(false);
  });

  it('verifies an apex domain by its TXT proof', async () => {
    const t = await createTenant(app);
    const domain = domainName('apex');
    const pageId = await pageWithDomain(t, domain);
    zone.set(domain, { A: ['127.0.0.1'] });
    zone.set(`_tracking-page.${domain}`, { TXT: ['v=spf1 -all', `tracking-page=${pageId}`] });
    const res = await api(app, { token: t.token })
      .json()
      .post('/domain/verify', { domain })
      .expect(200);
    expect(res.body).toMatchObject({ accessible: true, verified: true, method: 'txt', ssl: false });
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
