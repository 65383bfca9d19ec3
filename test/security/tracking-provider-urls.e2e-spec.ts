import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { startFakeProviderServer, type FakeProviderServer } from '../fakes/fake-provider-server';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import {
  createProviderCredentials,
  formatNumber,
  s10Number,
  waitForTracked,
} from '../tracking-providers/provider-e2e-support';

/** What the attacker wants to read: it must never reach the tenant. */
const SECRET = 'INTERNAL-SECRET-7f3a9c';

/** A server answering every request `status` with the secret, counting what it got. */
interface LeakyServer {
  url: string;
  paths: string[];
  status: number;
  close(): Promise<void>;
}

async function startLeakyServer(host: string): Promise<LeakyServer> {
  const paths: string[] = [];
  const leaky = { paths, status: 200 } as LeakyServer;
  const server: Server = createServer((req, res) => {
    paths.push(new URL(req.url ?? '/', 'http://x').pathname);
    req.resume();
    res.writeHead(leaky.status, { 'Content-Type': 'text/plain' });
    res.end(`${SECRET} ${'x'.repeat(20)}`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  leaky.url = `http://${host}:${(server.address() as AddressInfo).port}`;
  leaky.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return leaky;
}

/** Each tracking provider: a number it tracks and credentials it accepts (but the server). */
const PROVIDERS: Array<{
  type: string;
  carrier: string;
  number: () => string;
  parameters?: Record<string, unknown>;
  secrets: Record<string, string>;
}> = [
  {
    type: '17track',
    carrier: 'china-post',
    number: () => s10Number('CN'),
    secrets: { apiKey: 'key-0123456789abcdef' },
  },
  {
    type: 'aftership',
    carrier: 'china-post',
    number: () => s10Number('CN'),
    secrets: { apiKey: 'asat_0123456789abcdef' },
  },
  {
    type: 'ship24',
    carrier: 'china-post',
    number: () => s10Number('CN'),
    secrets: { apiKey: 'apik_0123456789abcdef' },
  },
  {
    type: 'easypost',
    carrier: 'usps',
    number: () => formatNumber('usps-20'),
    secrets: { apiKey: 'EZTK0123456789abcdef' },
  },
  {
    type: 'dhl',
    carrier: 'dhl',
    number: () => formatNumber('dhl-express-10'),
    secrets: { apiKey: 'dhl-0123456789abcdef' },
  },
  {
    type: 'ups',
    carrier: 'ups',
    number: () => formatNumber('ups-1z'),
    parameters: { clientId: 'ups-client' },
    secrets: { clientSecret: 'ups-secret-0123456789' },
  },
  {
    type: 'fedex',
    carrier: 'fedex',
    number: () => formatNumber('fedex-smartpost-22'),
    parameters: { clientId: 'fedex-client' },
    secrets: { clientSecret: 'fedex-secret-0123456789' },
  },
  {
    type: 'usps',
    carrier: 'usps',
    number: () => formatNumber('usps-20'),
    parameters: { clientId: 'usps-client' },
    secrets: { clientSecret: 'usps-secret-0123456789' },
  },
];

/**
 * Issue 22 finding 1 (SSRF through tracking credentials' `baseUrl`): a team owner points a
 * provider's credentials at an internal address (or at a path of their choosing behind a `#`);
 * the refresh must not call it, and nothing a foreign server answers may come back to the
 * tenant (trackingError, rejectionReason, notifications). 127.0.0.1 plays a public server the
 * tenant owns (TRACKING_PROVIDER_ALLOWED_HOSTS lets the app reach it); 127.0.0.2 plays the
 * deployment's internal network.
 */
describe('security: tracking provider URLs', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let internal: LeakyServer;
  let own: LeakyServer;
  let fake: FakeProviderServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    internal = await startLeakyServer('127.0.0.2');
    own = await startLeakyServer('127.0.0.1');
    fake = await startFakeProviderServer();
    process.env.TRACKING_PROVIDER_ALLOWED_HOSTS = '127.0.0.1';
    // The operator's own provider, for teams without credentials: on the internal network.
    process.env.TRACKING_PROVIDER = '17track';
    process.env.TRACKING_PROVIDER_CREDENTIALS = JSON.stringify({
      apiKey: 'instance-key-0123456789',
      baseUrl: `${internal.url}/instance`,
    });
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(async () => {
    process.env = saved;
    await closeTestApp(app);
    await Promise.all([internal.close(), own.close(), fake.close()]);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    internal.paths.length = 0;
    own.paths.length = 0;
    own.status = 200;
  });

  const http = () => api(app, { token: tenant.token });
  const credentials = (
    type: string,
    baseUrl: string,
    secrets = { apiKey: 'key-0123456789abcdef' },
  ) =>
    http().post('/credentials', {
      type,
      team: `/teams/${tenant.teamId}`,
      parameters: { baseUrl },
      secrets,
    });

  /** Credentials stored with `baseUrl` as it is (written before the rule, or by hand). */
  async function storedCredentials(p: (typeof PROVIDERS)[number], baseUrl: string) {
    const id = await createProviderCredentials(
      app,
      tenant,
      p.type,
      { requestsPerSecond: 1000, ...p.parameters },
      p.secrets,
    );
    await db.query(
      `UPDATE credentials SET parameters = parameters || jsonb_build_object('baseUrl', $2::text)
        WHERE id = $1`,
      [id, baseUrl],
    );
    return id;
  }

  async function trackedShipment(p: (typeof PROVIDERS)[number]) {
    const res = await http()
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: p.number(),
        originCarrier: p.carrier,
      })
      .expect(201);
    return waitForTracked(app, tenant, res.body.id);
  }

  it('refuses a baseUrl with a query, a fragment, user info or a private address (422)', async () => {
    for (const baseUrl of [
      `${own.url}/track/v2.2#`,
      `${own.url}/admin/dump#/track`,
      `${own.url}/track?`,
      `${own.url}/track?x=1`,
      `http://user:pw@127.0.0.1/track`,
      `${internal.url}/track/v2.2`,
      'http://10.0.0.1/track',
      'http://169.254.169.254/latest/meta-data',
      'http://[::127.0.0.1]/track',
      'http://[::ffff:10.0.0.1]/track',
      'http://[::ffff:127.0.0.2]/track',
    ]) {
      const res = await credentials('17track', baseUrl);
      expect({ baseUrl, status: res.status }).toEqual({ baseUrl, status: 422 });
      expect(res.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual([
        'parameters.baseUrl',
      ]);
    }
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM credentials WHERE team_id = $1`,
      [tenant.teamId],
    );
    expect(n).toBe(0);
    // The provider's own server and an allowed one are fine; a PUT is checked the same way.
    await credentials('17track', 'https://api.17track.net/track/v2.2').expect(201);
    const ok = await credentials('aftership', `${own.url}/aftership/`).expect(201);
    const put = await http()
      .put(`/credentials/${ok.body.id}`, {
        type: 'aftership',
        team: `/teams/${tenant.teamId}`,
        parameters: { baseUrl: `${own.url}/x#` },
      })
      .expect(422);
    expect(put.body.violations[0].propertyPath).toBe('parameters.baseUrl');
  });

  it.each(PROVIDERS)('$type: stored credentials never reach a private address', async (p) => {
    await storedCredentials(p, `${internal.url}/internal/api`);
    const shipment = await trackedShipment(p);
    expect(internal.paths.filter((path) => path.startsWith('/internal'))).toEqual([]);
    expect(shipment.trackingError).toBe(`${p.type}: refused: not a public address`);

    // The same address in IPv6 clothes (names are resolved and judged alike: unit specs).
    tenant = await createTenant(app);
    await storedCredentials(p, `http://[::ffff:127.0.0.2]:${new URL(internal.url).port}/api`);
    const again = await trackedShipment(p);
    expect(internal.paths.filter((path) => path.startsWith('/internal'))).toEqual([]);
    expect(again.trackingError).toBe(`${p.type}: refused: not a public address`);
  });

  it.each(PROVIDERS)('$type: a server\u2019s answer never reaches the tenant', async (p) => {
    own.status = 502;
    const id = await storedCredentials(p, `${own.url}/api`);
    const failed = await trackedShipment(p);
    expect(own.paths.length).toBeGreaterThan(0);
    expect(failed.trackingError).toBe(`${p.type} answered HTTP 502`);

    own.status = 401;
    tenant = await createTenant(app);
    const rejectedId = await storedCredentials(p, `${own.url}/api`);
    const refused = await trackedShipment(p);
    expect(refused.trackingError).not.toContain(SECRET);
    const creds = await http().get(`/credentials/${rejectedId}`).expect(200);
    expect(creds.body.rejectionReason).toBe(`${p.type} rejected the credentials (HTTP 401)`);
    const notices = await http()
      .get('/notifications?tag=tracking_credentials_rejected')
      .expect(200);
    expect(notices.body['hydra:member']).toHaveLength(1);
    expect(JSON.stringify(notices.body)).not.toContain(SECRET);
    expect(id).not.toBe(rejectedId);
  });

  it('17TRACK: the per-number and whole-request errors it words are not echoed', async () => {
    const p = PROVIDERS[0];
    const apiKey = p.secrets.apiKey;
    fake.on('POST', '/v2/register', (req) => ({
      status: 200,
      body: {
        code: 0,
        data: {
          accepted: [],
          rejected: (req.body as Array<{ number: string }>).map((i) => ({
            number: i.number,
            error: { code: -18019910, message: SECRET },
          })),
        },
      },
    }));
    await storedCredentials({ ...p, secrets: { apiKey } }, `${fake.baseUrl}/v2`);
    const rejected = await trackedShipment(p);
    expect(rejected.trackingError).toMatch(/^17track /);
    expect(rejected.trackingError).not.toContain(SECRET);

    fake.on('POST', '/v2/register', () => ({
      status: 200,
      body: { code: -18010012, data: { errors: [{ code: -18010012, message: SECRET }] } },
    }));
    tenant = await createTenant(app);
    await storedCredentials(p, `${fake.baseUrl}/v2`);
    const failed = await trackedShipment(p);
    expect(failed.trackingError).toMatch(/^17track /);
    expect(failed.trackingError).not.toContain(SECRET);
  });

  it('the operator\u2019s TRACKING_PROVIDER is trusted: its URL is not checked', async () => {
    // A team without credentials of its own is tracked by the instance provider.
    const shipment = await trackedShipment(PROVIDERS[0]);
    expect(internal.paths).toContain('/instance/register');
    expect(shipment.trackingError).toMatch(/^17track /);
    expect(shipment.trackingError).not.toContain(SECRET);
  });

  it('a # or ? in a stored baseUrl never lets the tenant choose the path', async () => {
    const p = PROVIDERS[0];
    for (const baseUrl of [`${own.url}/admin/dump#`, `${own.url}/admin/dump?`]) {
      tenant = await createTenant(app);
      await storedCredentials(p, baseUrl);
      const shipment = await trackedShipment(p);
      expect(own.paths.filter((path) => path === '/admin/dump')).toEqual([]);
      expect(shipment.trackingError).not.toContain(SECRET);
    }
  });
});
