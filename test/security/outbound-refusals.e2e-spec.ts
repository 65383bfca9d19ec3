import type { NestExpressApplication } from '@nestjs/platform-express';
import { EventDelivery } from '../../src/events/event-delivery';
import { WebhookSender } from '../../src/webhooks/webhook-sender';
import { testTrackingNumber } from '../factories/commerce.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { useEventApp, type EventApp } from '../support/event-app';
import { api } from '../support/http';

/** IPv4-compatible IPv6 addresses (`::/96`): loopback and 10.0.0.1 in disguise. */
const IPV4_COMPATIBLE = ['::127.0.0.1', '::a00:1', '::7f00:1', '::169.254.169.254'];

/**
 * Issue 22 finding 10: a refused outbound connection tells the tenant only that it was
 * refused, never which private address an internal name resolves to; the IPv4-compatible IPv6
 * range `::/96` is refused like the private IPv4 addresses it carries.
 */
describe('security: outbound refusals', () => {
  const env = useEventApp();
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(() => {
    ({ app } = env as Required<EventApp>);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterEach(() => jest.restoreAllMocks());

  const http = () => api(app, { token: tenant.token });
  const webhook = (url: string) =>
    http().post('/workflows', {
      title: 'Internal hook',
      type: 'webhook',
      workspace: `/workspaces/${tenant.workspaceId}`,
      enabled: true,
      period: 'immediately',
      credentials: {
        type: 'webhook',
        parameters: { url },
        secrets: { signingSecret: 'whsec_e2e_0123456789abcdef' },
      },
    });

  it('logs only "refused: not a public address" for a name that resolves to a private one', async () => {
    // The deployment's DNS answers an internal address for this name.
    const sender = app.get(WebhookSender) as unknown as {
      lookupHost: (host: string) => Promise<Array<{ address: string; family: number }>>;
    };
    jest.spyOn(sender, 'lookupHost').mockResolvedValue([{ address: '10.20.30.40', family: 4 }]);
    const workflow = (await webhook('http://billing.internal.example/hook').expect(201)).body;
    await http()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: testTrackingNumber('200'),
      })
      .expect(201);
    await app.get(EventDelivery).runUntilIdle();
    const runs = (await http().get(`/workflows/${workflow.id}/runs`).expect(200)).body[
      'hydra:member'
    ] as Array<Record<string, unknown>>;
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      expect(run).toMatchObject({ status: 'failed', responseCode: null });
      expect(run.errors).toBe('refused: not a public address');
    }
    expect(JSON.stringify(runs)).not.toContain('10.20.30.40');
  });

  it.each(IPV4_COMPATIBLE)(
    'refuses the IPv4-compatible address %s as a webhook target',
    async (address) => {
      const res = await webhook(`http://[${address}]/hook`).expect(422);
      expect(res.body['hydra:description']).toMatch(/private, loopback or link-local/);
    },
  );
});
