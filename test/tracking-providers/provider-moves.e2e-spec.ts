import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { addWorkspace, createTenant, type Tenant } from '../factories/tenant.factory';
import { startSeventeenTrackFake, type SeventeenTrackFake } from '../fakes/seventeen-track-fake';
import { ship24Event, startShip24Fake, type Ship24Fake } from '../fakes/ship24-fake';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { api } from '../support/http';
import { NOW, postDelivery } from './provider-e2e-harness';
import {
  allowLoopbackProviders,
  CHINA_POST,
  createProviderCredentials,
  getShipment,
  insertShipments,
  pickedUpInChina,
  rerouted,
  s10Number,
} from './provider-e2e-support';
import { until } from '../support/until';

/**
 * A shipment whose route changes (the team's default, a carrier override, its own carrier, or
 * no remote route at all) is registered at its new provider and stopped at the old one, with
 * two fakes: Ship24 (unsubscribes trackers with PATCH) and 17TRACK (stoptrack).
 */
const MINUTE = 60_000;

describe('a shipment moving to other tracking credentials', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let ship24: Ship24Fake;
  let seventeen: SeventeenTrackFake;
  let tenant: Tenant;
  let ship24Id: string;

  allowLoopbackProviders();
  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
    ship24 = await startShip24Fake();
    seventeen = await startSeventeenTrackFake();
  });
  afterAll(async () => {
    app?.get(Clock).reset();
    await ship24?.close();
    await seventeen?.close();
    await closeTestApp(app);
  });

  const ship24Parameters = () => ({ baseUrl: ship24.baseUrl, requestsPerSecond: 1000 });
  const ship24Secrets = () => ({ apiKey: ship24.apiKey, webhookSecret: ship24.webhookSecret });

  beforeEach(async () => {
    app.get(Clock).set(NOW);
    tenant = await createTenant(app);
    ship24Id = await createProviderCredentials(
      app,
      tenant,
      'ship24',
      ship24Parameters(),
      ship24Secrets(),
    );
  });

  /** A China Post number both providers know, in transit. */
  const sample = async () => {
    const number = s10Number('CN');
    ship24.setTracking(number, {
      courierCode: ['china-post'],
      events: [
        ship24Event({
          trackingNumber: number,
          occurrenceDatetime: '2026-03-02T09:10:00+08:00',
          status: 'Acceptance',
          statusMilestone: 'in_transit',
          courierCode: 'china-post',
        }),
      ],
    });
    seventeen.setJourney(number, pickedUpInChina());
    const [id] = await insertShipments(app, tenant.workspaceId, [number], 'china-post', NOW);
    return { number, id };
  };
  const trackOnce = async (id: string) =>
    expect((await app.get(TrackingService).trackMany([id])).failures).toEqual([]);
  const state = async (id: string) => {
    const [row] = await db.query(
      `SELECT credentials_key, registered_at, stopped_at FROM shipment_remote_tracking
        WHERE shipment_id = $1`,
      [id],
    );
    return row as
      { credentials_key: string; registered_at: Date | null; stopped_at: Date | null } | undefined;
  };
  const queued = async (number: string) =>
    (await db.query(
      `SELECT credentials_key, attempts FROM remote_tracking_stop
                      WHERE tracking_number = $1`,
      [number],
    )) as Array<{
      credentials_key: string;
      attempts: number;
    }>;
  const ship24Unsubscribes = (number: string) => {
    const { trackerId } = ship24.trackings.get(number)!.tracker;
    return ship24
      .trackerPatches()
      .filter((r) => r.path === `/public/v1/trackers/${trackerId}`)
      .map((r) => r.body);
  };
  const seventeenTrackCalls = (endpoint: string, number: string) =>
    seventeen
      .calls(endpoint)
      .flatMap((r) => r.body as Array<{ number: string; carrier?: number }>)
      .filter((i) => i.number === number);
  const createSeventeenTrack = (parameters: Record<string, unknown>) =>
    createProviderCredentials(
      app,
      tenant,
      '17track',
      { baseUrl: seventeen.apiUrl, requestsPerSecond: 1000, ...parameters },
      { apiKey: seventeen.apiKey },
    );

  it('is stopped at the old provider when the team default changes, retried if that fails', async () => {
    const { number, id } = await sample();
    await trackOnce(id);
    expect(await state(id)).toMatchObject({ credentials_key: ship24Id, stopped_at: null });
    expect(ship24Unsubscribes(number)).toEqual([]);

    // 17TRACK becomes the team's default; Ship24 fails the first unsubscription.
    ship24.server.failNextOn('PATCH', '/public/v1/trackers/', {
      status: 503,
      body: 'Service Unavailable',
    });
    const seventeenId = await createSeventeenTrack({ isDefault: true });
    await trackOnce(id);
    // Registered and tracked at 17TRACK all the same.
    expect(seventeenTrackCalls('register', number)).toEqual([{ number, carrier: CHINA_POST }]);
    expect(await state(id)).toMatchObject({ credentials_key: seventeenId, stopped_at: null });
    expect((await state(id))!.registered_at).not.toBeNull();
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'in_transit',
      trackingError: null,
    });
    // The stop at Ship24 failed once: queued for a later pass, under the old credentials.
    expect(ship24Unsubscribes(number)).toHaveLength(1);
    expect(ship24.trackings.get(number)!.tracker.isSubscribed).toBe(true);
    expect(await queued(number)).toEqual([{ credentials_key: ship24Id, attempts: 1 }]);

    app.get(Clock).set(new Date(NOW.getTime() + 15 * MINUTE));
    await app.get(TrackingRefresher).runUntilIdle();
    expect(ship24Unsubscribes(number)).toEqual([{ isSubscribed: false }, { isSubscribed: false }]);
    expect(ship24.trackings.get(number)!.tracker.isSubscribed).toBe(false);
    expect(await queued(number)).toEqual([]);

    // Ship24's pushes for it no longer touch the shipment (another provider tracks it).
    const push = await postDelivery(ship24.signedDelivery([ship24.trackings.get(number)!]))(
      `${testAppUrl(app)}/public/tracking_webhooks/ship24/${ship24Id}`,
    );
    expect(push.status).toBe(202);
  });

  it('is stopped at the old provider when an override takes it, or a new journey leaves it', async () => {
    const { number, id } = await sample();
    await trackOnce(id);
    const seventeenId = await createSeventeenTrack({ carriers: 'china-post' });
    await trackOnce(id);
    expect(await state(id)).toMatchObject({ credentials_key: seventeenId });
    expect(ship24Unsubscribes(number)).toEqual([{ isSubscribed: false }]);

    // A new journey of another carrier, which the override does not list: its job tracks it
    // at Ship24, and the old number is stopped at 17TRACK with the carrier it had there.
    const usps = s10Number('US', 'EA');
    await api(app, { token: tenant.token })
      .json()
      .put(`/shipments/${id}`, { trackingNumber: usps, originCarrier: 'usps' })
      .expect(200);
    // The new route is written before the old number's stop is sent: wait for both.
    await until(
      async () =>
        (await state(id))?.credentials_key === ship24Id &&
        seventeenTrackCalls('stoptrack', number).length > 0 &&
        (await queued(number)).length === 0,
    );
    expect(seventeenTrackCalls('stoptrack', number)).toEqual([{ number, carrier: CHINA_POST }]);
    expect(seventeen.registered.get(number)?.stopped).toBe(true);
    expect(seventeenTrackCalls('register', usps)).toEqual([]);
    expect(
      ship24.server
        .calls('POST', '/public/v1/trackers/bulk')
        .filter((r) => JSON.stringify(r.body).includes(usps)),
    ).toHaveLength(1);
    expect((await state(id))!.registered_at).not.toBeNull();
    expect(await queued(number)).toEqual([]);
  });

  it('is stopped when no credentials route it any more', async () => {
    const { number, id } = await sample();
    await trackOnce(id);
    // Ship24 now tracks USPS numbers only: nothing remote tracks this China Post shipment.
    await api(app, { token: tenant.token })
      .json()
      .put(`/credentials/${ship24Id}`, { parameters: { ...ship24Parameters(), carriers: 'usps' } })
      .expect(200);
    await rerouted(app, tenant.teamId);
    await trackOnce(id);
    expect(ship24Unsubscribes(number)).toEqual([{ isSubscribed: false }]);
    expect(await state(id)).toBeUndefined();
    expect(await queued(number)).toEqual([]);
  });

  it('is not stopped while another shipment still tracks the number there', async () => {
    const { number, id } = await sample();
    // The same number in another workspace of the team, under another carrier code.
    const other = await addWorkspace(app, tenant);
    const [twin] = await insertShipments(app, other, [number], 'usps', NOW);
    await trackOnce(id);
    await trackOnce(twin);
    expect(await state(twin)).toMatchObject({ credentials_key: ship24Id });
    // An override takes the twin to 17TRACK; the first shipment stays at Ship24.
    const seventeenId = await createSeventeenTrack({ carriers: 'usps' });
    await trackOnce(twin);
    expect(await state(twin)).toMatchObject({ credentials_key: seventeenId });
    expect(ship24Unsubscribes(number)).toEqual([]);
    expect(ship24.trackings.get(number)!.tracker.isSubscribed).toBe(true);
    expect(await state(id)).toMatchObject({ credentials_key: ship24Id, stopped_at: null });
    expect(await queued(number)).toEqual([]);
  });
});
