import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { WIDGET_LOOKUPS_PER_WINDOW } from '../src/widgets/widget-lookup-throttler.guard';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

/** The app built with TRUST_PROXY as given (undefined: unset), as a start-up would read it. */
async function appWithTrustProxy(value: string | undefined): Promise<NestExpressApplication> {
  const saved = process.env.TRUST_PROXY;
  if (value === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = value;
  try {
    return await createTestApp();
  } finally {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
  }
}

/**
 * Per-client budgets behind a reverse proxy, on the widget look-up (a public route limited per
 * widget and client address). supertest connects over loopback, standing in for the proxy.
 */
describe.each([
  ['TRUST_PROXY=loopback', 'loopback', true],
  ['TRUST_PROXY unset', undefined, false],
])('%s', (_label, trustProxy, separate) => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await appWithTrustProxy(trustProxy);
    tenant = await createTenant(app);
  });
  afterEach(() => app.get(DataSource).query(`DELETE FROM rate_limit_counter`));
  afterAll(() => closeTestApp(app));

  async function widgetId(): Promise<string> {
    const res = await api(app, { token: tenant.token })
      .post('/widgets', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        title: 'Track your parcel',
        type: 'tracking_form',
      })
      .expect(201);
    return res.body.id as string;
  }

  const lookup = (id: string, forwardedFor: string, n: number) =>
    api(app)
      .post(`/public/widgets/${id}/lookup`, { trackingNumber: `PROXY${n}` })
      .set('X-Forwarded-For', forwardedFor);

  /** Looks up as `forwardedFor` until 429; answers how many look-ups passed. */
  async function spend(id: string, forwardedFor: string): Promise<number> {
    for (let i = 0; i <= WIDGET_LOOKUPS_PER_WINDOW; i++) {
      const res = await lookup(id, forwardedFor, i);
      if (res.status === 429) return i;
      expect(res.status).toBe(200);
    }
    throw new Error(`no 429 after ${WIDGET_LOOKUPS_PER_WINDOW + 1} look-ups`);
  }

  if (separate) {
    it('gives each forwarded client its own budget', async () => {
      const id = await widgetId();
      expect(await spend(id, '203.0.113.10')).toBe(WIDGET_LOOKUPS_PER_WINDOW);
      await lookup(id, '203.0.113.10', 99).expect(429);
      // Another client behind the same proxy, and the proxy's own requests, still get answers.
      await lookup(id, '203.0.113.11', 0).expect(200);
      await api(app).post(`/public/widgets/${id}/lookup`, { trackingNumber: 'P' }).expect(200);
      // The client is the address the trusted proxy saw: one the client prepends is ignored.
      await lookup(id, '198.51.100.7, 203.0.113.10', 0).expect(429);
    });
  } else {
    it('ignores X-Forwarded-For: a spoofed address gets no fresh budget', async () => {
      const id = await widgetId();
      expect(await spend(id, '203.0.113.10')).toBe(WIDGET_LOOKUPS_PER_WINDOW);
      const refused = await lookup(id, '203.0.113.11', 0).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await api(app).post(`/public/widgets/${id}/lookup`, { trackingNumber: 'P' }).expect(429);
    });
  }
});
