import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { WorkspaceDeletion } from '../../src/workspaces/workspace-deletion';
import { addWorkspace, createTenant, type Tenant } from '../factories/tenant.factory';
import {
  SEVENTEEN_TRACK_PREFIX,
  startSeventeenTrackFake,
  type SeventeenTrackFake,
} from '../fakes/seventeen-track-fake';
import { ship24Event, startShip24Fake, type Ship24Fake } from '../fakes/ship24-fake';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { NOW, queuedStops } from './provider-e2e-harness';
import {
  allowLoopbackProviders,
  CHINA_POST,
  createProviderCredentials,
  insertShipments,
  pickedUpInChina,
  s10Number,
} from './provider-e2e-support';
import { until } from '../support/until';

/**
 * Numbers stopped at their provider because their shipments or credentials went: every path
 * that deletes shipments (batch delete, merge, workspace deletion; DELETE /shipments/{id} is in
 * the provider specs' shared tests), and credentials deleted or pointed at another account or
 * provider (stopped at the old one at once, by the `tracking.reroute` job, with the old
 * secrets). Two 17TRACK fakes (two accounts) and a Ship24 fake.
 */
const MINUTE = 60_000;

/** The stoptrack items a 17TRACK fake received for a number, with the key each came with. */
const stopsAt = (fake: SeventeenTrackFake, number: string) =>
  fake
    .calls('stoptrack')
    .flatMap((r) =>
      (r.body as Array<{ number: string; carrier?: number }>)
        .filter((i) => i.number === number)
        .map((i) => ({ ...i, key: r.headers['17token'] })),
    );
const registersAt = (fake: SeventeenTrackFake, number: string) =>
  fake
    .calls('register')
    .flatMap((r) => r.body as Array<{ number: string }>)
    .filter((i) => i.number === number);

describe('stopping numbers whose shipments or credentials go', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let accountA: SeventeenTrackFake;
  let accountB: SeventeenTrackFake;
  let ship24: Ship24Fake;
  let tenant: Tenant;
  let credentialsId: string;

  allowLoopbackProviders();
  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
    accountA = await startSeventeenTrackFake('st-key-account-a-0001');
    accountB = await startSeventeenTrackFake('st-key-account-b-0002');
    ship24 = await startShip24Fake();
  });
  afterAll(async () => {
    app?.get(Clock).reset();
    await accountA?.close();
    await accountB?.close();
    await ship24?.close();
    await closeTestApp(app);
  });

  const accountAParameters = () => ({ baseUrl: accountA.apiUrl, requestsPerSecond: 1000 });

  beforeEach(async () => {
    app.get(Clock).set(NOW);
    tenant = await createTenant(app);
    credentialsId = await createProviderCredentials(app, tenant, '17track', accountAParameters(), {
      apiKey: accountA.apiKey,
    });
  });

  const http = () => api(app, { token: tenant.token }).json();
  /** In-transit China Post shipments known to both accounts, registered at account A. */
  const tracked = async (count: number, workspaceId = tenant.workspaceId) => {
    const numbers = Array.from({ length: count }, () => s10Number('CN'));
    for (const n of numbers) {
      accountA.setJourney(n, pickedUpInChina());
      accountB.setJourney(n, pickedUpInChina());
    }
    const ids = await insertShipments(app, workspaceId, numbers, 'china-post', NOW);
    expect((await app.get(TrackingService).trackMany(ids)).failures).toEqual([]);
    for (const n of numbers) expect(accountA.registered.get(n)?.stopped).toBe(false);
    return numbers.map((number, i) => ({ number, id: ids[i] }));
  };
  const upkeep = () => app.get(TrackingRefresher).runBatch();
  const state = async (id: string) =>
    (
      await db.query(
        `SELECT credentials_key, registered_at FROM shipment_remote_tracking WHERE shipment_id = $1`,
        [id],
      )
    )[0] as { credentials_key: string; registered_at: Date | null } | undefined;
  const retired = async () =>
    (
      await db.query(
        `SELECT count(*)::int AS n FROM retired_tracking_credentials WHERE retired_from = $1`,
        [credentialsId],
      )
    )[0].n as number;

  it('delete_records_batch stops every deleted number once, after the request', async () => {
    const [a, b, kept] = await tracked(3);
    await http()
      .post('/delete_records_batch', { entity: 'shipments', ids: [a.id, b.id] })
      .expect(200);
    expect(stopsAt(accountA, a.number)).toEqual([]);
    expect(await queuedStops(db, a.number)).toEqual([
      { credentials_key: credentialsId, attempts: 0 },
    ]);
    expect(await queuedStops(db, b.number)).toEqual([
      { credentials_key: credentialsId, attempts: 0 },
    ]);

    await upkeep();
    for (const s of [a, b]) {
      expect(stopsAt(accountA, s.number)).toEqual([
        { number: s.number, carrier: CHINA_POST, key: accountA.apiKey },
      ]);
      expect(accountA.registered.get(s.number)?.stopped).toBe(true);
      expect(await queuedStops(db, s.number)).toEqual([]);
    }
    expect(stopsAt(accountA, kept.number)).toEqual([]);
  });

  it('a merge stops the merged duplicates’ numbers, not its target’s', async () => {
    const [target, dup] = await tracked(2);
    await http()
      .post('/shipments/merge', { target: `/shipments/${target.id}`, shipments: [dup.id] })
      .expect(200);
    await upkeep();
    expect(stopsAt(accountA, dup.number)).toEqual([
      { number: dup.number, carrier: CHINA_POST, key: accountA.apiKey },
    ]);
    expect(stopsAt(accountA, target.number)).toEqual([]);
    expect(accountA.registered.get(target.number)?.stopped).toBe(false);
    expect(await state(target.id)).toMatchObject({ credentials_key: credentialsId });
  });

  it('does not stop a deleted number another shipment still tracks there', async () => {
    const [a] = await tracked(1);
    // The same number in another workspace of the team, tracked at the same credentials.
    const other = await addWorkspace(app, tenant);
    const [twin] = await insertShipments(app, other, [a.number], 'china-post', NOW);
    expect((await app.get(TrackingService).trackMany([twin])).failures).toEqual([]);
    await api(app, { token: tenant.token }).delete(`/shipments/${a.id}`).expect(204);
    expect(await queuedStops(db, a.number)).toEqual([
      { credentials_key: credentialsId, attempts: 0 },
    ]);
    await upkeep();
    expect(stopsAt(accountA, a.number)).toEqual([]);
    expect(await queuedStops(db, a.number)).toEqual([]);

    // Once the twin goes too, the number is stopped: by the delete's own send or by a pass
    // (a pass that finds the stop leased by the delete's send leaves it to that one).
    await api(app, { token: tenant.token }).delete(`/shipments/${twin}`).expect(204);
    await until(async () => {
      await upkeep();
      return stopsAt(accountA, a.number).length > 0;
    });
    expect(stopsAt(accountA, a.number)).toEqual([
      { number: a.number, carrier: CHINA_POST, key: accountA.apiKey },
    ]);
  });

  it('deleting a workspace, at once or scheduled, stops the numbers of its shipments', async () => {
    const small = await addWorkspace(app, tenant);
    const [a] = await tracked(1, small);
    await api(app, { token: tenant.token }).delete(`/workspaces/${small}`).expect(204);
    await upkeep();
    expect(stopsAt(accountA, a.number)).toEqual([
      { number: a.number, carrier: CHINA_POST, key: accountA.apiKey },
    ]);

    // A large workspace is deleted table by table by the background task.
    const large = await addWorkspace(app, tenant);
    const [b] = await tracked(1, large);
    await db.query(`UPDATE workspace SET scheduled_for_delete = true WHERE id = $1`, [large]);
    while (await app.get(WorkspaceDeletion).runBatch());
    expect(await db.query(`SELECT 1 FROM workspace WHERE id = $1`, [large])).toEqual([]);
    await upkeep();
    expect(stopsAt(accountA, b.number)).toEqual([
      { number: b.number, carrier: CHINA_POST, key: accountA.apiKey },
    ]);
    expect(await queuedStops(db, b.number)).toEqual([]);
  });

  it('credentials moved to another account stop their numbers at the old one at once, retried', async () => {
    const [a] = await tracked(1);
    // The old account is down for the first stop.
    accountA.server.failNextOn('POST', `${SEVENTEEN_TRACK_PREFIX}/stoptrack`, {
      status: 503,
      body: 'Service Unavailable',
    });
    const put = await http()
      .put(`/credentials/${credentialsId}`, {
        parameters: { baseUrl: accountB.apiUrl, requestsPerSecond: 1000 },
        secrets: { apiKey: accountB.apiKey },
      })
      .expect(200);
    expect(put.body.secrets).toEqual({ apiKey: expect.not.stringContaining(accountB.apiKey) });

    // The reroute job tries the stop with the old key, then registers at the new account.
    // Wait for all of it: the registration at account A had set registered_at already, and a
    // fake records a call before its answer is handled.
    await until(
      async () =>
        stopsAt(accountA, a.number).length === 1 &&
        registersAt(accountB, a.number).length === 1 &&
        (await state(a.id))?.registered_at != null &&
        (await queuedStops(db, a.number))[0]?.attempts === 1,
    );
    expect(registersAt(accountB, a.number)).toEqual([{ number: a.number, carrier: CHINA_POST }]);
    expect(await state(a.id)).toMatchObject({ credentials_key: credentialsId });
    const [queued] = await queuedStops(db, a.number);
    expect(queued).toMatchObject({ attempts: 1 });
    expect(queued.credentials_key).not.toBe(credentialsId);
    expect(await retired()).toBe(1);
    expect(accountA.registered.get(a.number)?.stopped).toBe(false);

    // Its backoff over, the stop succeeds at the old account with the old key; the kept
    // copy of the old credentials goes with it.
    app.get(Clock).set(new Date(NOW.getTime() + 15 * MINUTE));
    await upkeep();
    expect(stopsAt(accountA, a.number)).toEqual([
      { number: a.number, carrier: CHINA_POST, key: accountA.apiKey },
      { number: a.number, carrier: CHINA_POST, key: accountA.apiKey },
    ]);
    expect(accountA.registered.get(a.number)?.stopped).toBe(true);
    expect(await queuedStops(db, a.number)).toEqual([]);
    expect(await retired()).toBe(0);
    expect(stopsAt(accountB, a.number)).toEqual([]);
  });

  it('deleted credentials stop their numbers with a copy kept until then', async () => {
    const [a, b] = await tracked(2);
    await api(app, { token: tenant.token }).delete(`/credentials/${credentialsId}`).expect(204);
    await until(
      () => stopsAt(accountA, a.number).length + stopsAt(accountA, b.number).length === 2,
    );
    for (const s of [a, b]) {
      expect(stopsAt(accountA, s.number)).toEqual([
        { number: s.number, carrier: CHINA_POST, key: accountA.apiKey },
      ]);
    }
    // No credentials route them any more: their remote state is released.
    await until(async () => (await state(a.id)) === undefined && (await state(b.id)) === undefined);
    await until(async () => (await retired()) === 0);
    expect(await queuedStops(db, a.number)).toEqual([]);
  });

  it('a carrier override given to other credentials moves the shipments at once', async () => {
    const [a] = await tracked(1);
    ship24.setTracking(a.number, {
      courierCode: ['china-post'],
      events: [
        ship24Event({
          trackingNumber: a.number,
          occurrenceDatetime: '2026-03-02T09:10:00+08:00',
          status: 'Acceptance',
          statusMilestone: 'in_transit',
          courierCode: 'china-post',
        }),
      ],
    });
    const ship24Parameters = { baseUrl: ship24.baseUrl, requestsPerSecond: 1000 };
    const ship24Id = await createProviderCredentials(
      app,
      tenant,
      'ship24',
      { ...ship24Parameters, carriers: 'usps' },
      { apiKey: ship24.apiKey, webhookSecret: ship24.webhookSecret },
    );
    await http()
      .put(`/credentials/${ship24Id}`, {
        parameters: { ...ship24Parameters, carriers: 'china-post' },
      })
      .expect(200);
    await until(() => stopsAt(accountA, a.number).length === 1);
    await until(async () => (await state(a.id))?.credentials_key === ship24Id);
    // The stop is answered before it leaves the queue.
    await until(async () => (await queuedStops(db, a.number)).length === 0);
    expect(stopsAt(accountA, a.number)).toEqual([
      { number: a.number, carrier: CHINA_POST, key: accountA.apiKey },
    ]);
  });

  it('answers 4xx for bad credentials writes without queuing anything', async () => {
    const [a] = await tracked(1);
    await http()
      .put(`/credentials/${credentialsId}`, { secrets: { apiKey: 42 } })
      .expect(422);
    await http().put(`/credentials/${credentialsId}`, { parameters: 'nope' }).expect(400);
    await http().delete(`/credentials/6b0d1c2e-0000-4000-8000-000000000000`).expect(404);
    expect(await queuedStops(db, a.number)).toEqual([]);
    expect(await retired()).toBe(0);
    expect(await state(a.id)).toMatchObject({ credentials_key: credentialsId });
    expect((await state(a.id))!.registered_at).not.toBeNull();
  });
});
