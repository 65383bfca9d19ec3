import type { NestExpressApplication } from '@nestjs/platform-express';
import { testTrackingNumber } from '../factories/commerce.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { startSeventeenTrackFake, type SeventeenTrackFake } from '../fakes/seventeen-track-fake';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { api } from '../support/http';
import {
  allowLoopbackProviders,
  createProviderCredentials,
  getShipment,
  s10Number,
  waitForTracked,
} from './provider-e2e-support';

/** TRACKING_PROVIDER: the self-hoster's provider for every team that configures none. */
describe('instance-wide tracking provider', () => {
  let app: NestExpressApplication;
  let instanceFake: SeventeenTrackFake;
  let teamFake: SeventeenTrackFake;

  const journey = {
    carrier: 3011,
    status: 'InTransit',
    subStatus: 'InTransit_PickedUp',
    events: [
      {
        time: new Date(Date.now() - 86_400_000).toISOString(),
        description: 'Acceptance',
        stage: 'PickedUp',
        subStatus: 'InTransit_PickedUp',
      },
    ],
  };

  // For the team's own credentials (TRACKING_PROVIDER's URL is the operator's: unchecked).
  allowLoopbackProviders();
  beforeAll(async () => {
    instanceFake = await startSeventeenTrackFake('instance-key-0123456789');
    teamFake = await startSeventeenTrackFake('team-key-0123456789');
    process.env.TRACKING_PROVIDER = '17track';
    process.env.TRACKING_PROVIDER_CREDENTIALS = JSON.stringify({
      apiKey: instanceFake.apiKey,
      baseUrl: instanceFake.apiUrl,
      requestsPerSecond: 1000,
    });
    app = await createTestApp({ listen: true });
  });

  afterAll(async () => {
    delete process.env.TRACKING_PROVIDER;
    delete process.env.TRACKING_PROVIDER_CREDENTIALS;
    await closeTestApp(app);
    await instanceFake?.close();
    await teamFake?.close();
  });

  const create = async (tenant: Tenant, trackingNumber: string) => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', { workspace: `/workspaces/${tenant.workspaceId}`, trackingNumber })
      .expect(201);
    return waitForTracked(app, tenant, res.body.id);
  };

  it('tracks teams without credentials through it, and receives its pushes at /instance', async () => {
    const tenant = await createTenant(app);
    const number = s10Number('CN');
    instanceFake.setJourney(number, journey);
    const shipment = await create(tenant, number);
    expect(shipment).toMatchObject({ originCarrier: 'china-post', trackingStatus: 'in_transit' });
    expect(instanceFake.registered.has(number)).toBe(true);

    instanceFake.setJourney(number, {
      ...journey,
      status: 'Delivered',
      subStatus: 'Delivered_Other',
      events: [
        ...journey.events,
        { time: new Date().toISOString(), description: 'Delivered', stage: 'Delivered' },
      ],
    });
    const url = `${testAppUrl(app)}/public/tracking_webhooks/17track/instance`;
    expect((await instanceFake.push(url, number, { signWith: 'wrong' })).status).toBe(401);
    expect((await instanceFake.push(url, number)).status).toBe(200);
    expect(await getShipment(app, tenant, shipment.id)).toMatchObject({
      trackingStatus: 'delivered',
    });

    // Sandbox numbers stay with the sandbox.
    const sandbox = await create(tenant, testTrackingNumber());
    expect(sandbox.originCarrier).toBe('tm-test');
    expect(instanceFake.registered.has(sandbox.trackingNumber)).toBe(false);
  });

  it("leaves a team's own credentials in charge of its shipments", async () => {
    const tenant = await createTenant(app);
    await createProviderCredentials(
      app,
      tenant,
      '17track',
      { baseUrl: teamFake.apiUrl, requestsPerSecond: 1000 },
      { apiKey: teamFake.apiKey },
    );
    const number = s10Number('CN');
    teamFake.setJourney(number, journey);
    const shipment = await create(tenant, number);
    expect(shipment.trackingStatus).toBe('in_transit');
    expect(teamFake.registered.has(number)).toBe(true);
    expect(instanceFake.registered.has(number)).toBe(false);
  });
});
