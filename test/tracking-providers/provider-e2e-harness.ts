import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import type { FakeProviderServer } from '../fakes/fake-provider-server';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { api } from '../support/http';
import {
  allowLoopbackProviders,
  createProviderCredentials,
  getCheckpoints,
  getShipment,
  insertShipments,
  s10Number,
  trackingRow,
  waitForTracked,
} from './provider-e2e-support';

/**
 * The e2e specs every tracking provider shares, declared from a table: a spec describes its
 * provider (fake server, credentials, sample numbers and journeys with the statuses they map
 * to, how it fails, throttles, refuses credentials and pushes) and `describeTrackingProvider`
 * declares the common tests; the spec adds only the tests of what is its provider's own.
 */

/** The clock of every test: the fakes' journeys are set around it. */
export const NOW = new Date('2026-03-10T12:00:00Z');
export const HOUR = 3_600_000;

/**
 * The sample journey of the aggregators' specs (AfterShip, Ship24, 17TRACK): a China Post S10
 * number handed to USPS for the last mile, kept current by push.
 */
export const CHINA_POST_TO_USPS = {
  carrier: 'china-post',
  number: () => s10Number('CN'),
  lastMile: 'usps',
  pushKeepsCurrent: true,
};

/** The first-tracking test of that journey, the provider giving `eta` as its ETA. */
export function chinaPostToUspsTracks(eta: string) {
  return {
    title: 'tracks a real-format number: status, checkpoints, raw status, ETA, last-mile carrier',
    shipment: { originCountryIso2: 'CN', destinationCountryIso2: 'US', expectedDeliveryDate: eta },
  };
}

/** What every provider fake offers: its HTTP server (calls, scripted failures) and a close. */
export interface ProviderFake {
  readonly server: FakeProviderServer;
  close(): Promise<void>;
}

/** Sends one webhook delivery to a URL; answers the receiver's status and body. */
export type WebhookSend = (url: string) => Promise<{ status: number; body: string }>;

/** A delivery as the fakes build them (headers and raw body), as a WebhookSend. */
export function postDelivery(delivery: {
  headers: Record<string, string>;
  body: string;
}): WebhookSend {
  return async (url) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
    });
    return { status: res.status, body: await res.text() };
  };
}

/** What a test sees, set before each test (read its fields inside tests, not when declaring). */
export interface ProviderTestContext<F extends ProviderFake> {
  app: NestExpressApplication;
  db: DataSource;
  clock: Clock;
  fake: F;
  /** A fresh tenant each test, with credentials of the provider for its team. */
  tenant: Tenant;
  credentialsId: string;
  /** POST /shipments with the provider's carrier, then waits for its first check. */
  createShipment(number: string): Promise<string>;
  /** The public webhook receiver of these credentials (or others, or another provider). */
  webhookUrl(credentialsId?: string, type?: string): string;
  trackMany: TrackingService['trackMany'];
  /** Sets the clock and lets the refresher check everything due then. */
  refreshAt(at: Date): Promise<void>;
  /** The `trackingStatus` of each `shipment.status_changed` event of a shipment, in order. */
  statusChanges(id: string): Promise<string[]>;
}

/** One sample shipment of a test: its number and its id. */
export interface Sample {
  number: string;
  id: string;
}

type Hook<F extends ProviderFake> = (ctx: ProviderTestContext<F>, sample: Sample) => unknown;

export interface TrackingProviderDescription<F extends ProviderFake> {
  /** As people write it: describe title, test names ('AfterShip'). */
  name: string;
  /** Credentials type: also the provider in error messages and webhook paths ('aftership'). */
  type: string;
  /** The origin carrier of the sample shipments ('china-post'). */
  carrier: string;
  start(): Promise<F>;
  /** Credentials pointing at the fake (the rate limit lifted for tests). */
  credentials(fake: F): { parameters: Record<string, unknown>; secrets: Record<string, string> };
  /** A real-format number of the carrier, different on each call. */
  number(): string;
  /** The journey of a sample when first tracked: its status and how many checkpoints. */
  inTransit: { seed(fake: F, number: string): unknown; status: string; checkpoints: number };
  /** The same journey, delivered. */
  delivered: { seed(fake: F, number: string): unknown; checkpoints: number };
  /** The carrier of the last mile the journey is handed to, when it is another one. */
  lastMile?: string;
  /**
   * Numbers kept current by push: after the first check the next poll is a day away (a
   * safety net), and the delivery is seen by that poll; otherwise by the next check.
   */
  pushKeepsCurrent?: boolean;
  /** OAuth providers: the tokens the fake issued, and its expiry of them all. */
  tokens?: { issued(fake: F): number; expire(fake: F): void };
  /** The first tracking of a sample, then its delivery. */
  tracks: {
    title: string;
    /** The shipment after its first check (beyond status, carriers and no error). */
    shipment: Record<string, unknown>;
    /** Its checkpoints, oldest first (checkpointDate as an ISO string in UTC). */
    checkpoints: Array<Record<string, unknown>>;
    /** The provider's own checks after the first check (requests, headers, …). */
    check?: Hook<F>;
    /** OAuth providers: what happens before the check that must reuse the token. */
    beforeReuse?: Hook<F>;
    /** Every status the sample goes through (default: in transit's, then delivered). */
    statuses?: string[];
    /** The provider's own checks once delivered. */
    delivered?: Hook<F>;
  };
  /** A provider outage: how the fake fails the next request and how it is reported. */
  outage: { fail(fake: F): void; status: number; retryAfterMs?: number };
  /** A 429 the provider answers, and the delay it asks for. */
  rateLimit?: {
    title: string;
    /** Numbers tracked in the round the 429 stops. */
    count: number;
    limit(fake: F): void;
    /** The exact delay, or the bounds of one measured from a reset time. */
    retryAfterMs: number | { min: number; max: number };
    /** Track one number first (e.g. to have a token cached). */
    warmUp?: boolean;
  };
  /**
   * Providers that stop numbers: a deleted shipment's number is stopped there after the delete.
   * `watch` is called before the delete (while the provider still knows the number) and answers
   * the stop requests the fake has received for it so far, each as `expected` describes one.
   */
  stop?: {
    watch(fake: F, number: string): () => unknown[];
    expected(number: string): unknown;
    /** The next stop request fails transiently (a 5xx or a 429). */
    fail(fake: F): void;
  };
  /** Credentials the provider refuses, and the reason it gives. */
  rejected: { title?: string; secrets: Record<string, string>; reason: RegExp };
  /** The provider's webhook pushes. */
  webhook?: {
    title: string;
    /** The journey the pushed sample is on before the push (default: in transit's). */
    seed?(fake: F, number: string): unknown;
    /** The push of what is new, and forged or unsigned copies of it. */
    deliveries(
      ctx: ProviderTestContext<F>,
      number: string,
    ): { valid: WebhookSend; forged: WebhookSend[] };
    /** The shipment after the push. */
    expect: Record<string, unknown> & { trackingStatus: string };
    /** The provider's own checks after the push and its repetition. */
    check?: Hook<F>;
    /** A push of a number nobody tracks with these credentials. */
    stranger(ctx: ProviderTestContext<F>): { number: string; send: WebhookSend };
  };
}

/**
 * Declares `describe('<name> tracking provider')` with the tests every provider shares,
 * then the provider's own (`extra`, given the context its tests read).
 */
export function describeTrackingProvider<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  extra?: (ctx: ProviderTestContext<F>) => void,
): void {
  describe(`${desc.name} tracking provider`, () => {
    const ctx = makeContext(desc);
    declareTracks(desc, ctx);
    if (desc.webhook) declareWebhook(desc, desc.webhook, ctx);
    declareOutage(desc, ctx);
    if (desc.rateLimit) declareRateLimit(desc, desc.rateLimit, ctx);
    declareRejected(desc, ctx);
    if (desc.stop) declareDeleteStop(desc, desc.stop, ctx);
    extra?.(ctx);
  });
}

function makeContext<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
): ProviderTestContext<F> {
  const ctx = {
    createShipment: async (number: string) => {
      const res = await api(ctx.app, { token: ctx.tenant.token })
        .json()
        .post('/shipments', {
          workspace: `/workspaces/${ctx.tenant.workspaceId}`,
          trackingNumber: number,
          originCarrier: desc.carrier,
        })
        .expect(201);
      // Tracked by its `tracking.track` job right after the create, not inside it.
      await waitForTracked(ctx.app, ctx.tenant, res.body.id);
      return res.body.id as string;
    },
    webhookUrl: (id = ctx.credentialsId, type = desc.type) =>
      `${testAppUrl(ctx.app)}/public/tracking_webhooks/${type}/${id}`,
    trackMany: ((...args) =>
      ctx.app.get(TrackingService).trackMany(...args)) as TrackingService['trackMany'],
    refreshAt: async (at: Date) => {
      ctx.clock.set(at);
      await ctx.app.get(TrackingRefresher).runUntilIdle();
    },
    statusChanges: async (id: string) => {
      const events: Array<{ payload: { trackingStatus: string } }> = await ctx.db.query(
        `SELECT payload FROM outbox_event
          WHERE aggregate_id = $1 AND type = 'shipment.status_changed' ORDER BY created_at`,
        [id],
      );
      return events.map((e) => e.payload.trackingStatus);
    },
  } as ProviderTestContext<F>;

  allowLoopbackProviders();
  beforeAll(async () => {
    // Webhook receivers are reached over HTTP, like the provider reaches them.
    ctx.app = await createTestApp({ listen: desc.webhook !== undefined });
    ctx.db = ctx.app.get(DataSource);
    ctx.clock = ctx.app.get(Clock);
    ctx.fake = await desc.start();
  });

  afterAll(async () => {
    ctx.clock?.reset();
    await ctx.fake?.close();
    await closeTestApp(ctx.app);
  });

  beforeEach(async () => {
    ctx.clock.set(NOW);
    ctx.tenant = await createTenant(ctx.app);
    const { parameters, secrets } = desc.credentials(ctx.fake);
    ctx.credentialsId = await createProviderCredentials(
      ctx.app,
      ctx.tenant,
      desc.type,
      parameters,
      secrets,
    );
  });

  return ctx;
}

/** Checkpoints as the API shows them, dates as UTC ISO strings (comparable to a table). */
async function checkpointsOf(
  ctx: ProviderTestContext<ProviderFake>,
  id: string,
): Promise<Array<Record<string, unknown>>> {
  return (await getCheckpoints(ctx.app, ctx.tenant, id)).map((c) => ({
    ...c,
    checkpointDate: new Date(c.checkpointDate).toISOString(),
  }));
}

/** A shipment with an in-transit sample, tracked once. */
async function trackedSample<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  ctx: ProviderTestContext<F>,
  seed = desc.inTransit.seed,
): Promise<Sample> {
  const number = desc.number();
  seed(ctx.fake, number);
  return { number, id: await ctx.createShipment(number) };
}

function declareTracks<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  ctx: ProviderTestContext<F>,
): void {
  const { tracks, tokens } = desc;
  it(tracks.title, async () => {
    const { fake, app, tenant } = ctx;
    const tokensBefore = tokens?.issued(fake) ?? 0;
    const sample = await trackedSample(desc, ctx);
    const { id } = sample;

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: desc.inTransit.status,
      originCarrier: desc.carrier,
      ...(desc.lastMile ? { destinationCarrier: desc.lastMile } : {}),
      trackingError: null,
      ...tracks.shipment,
    });
    expect(tracks.checkpoints).toHaveLength(desc.inTransit.checkpoints);
    expect(await checkpointsOf(ctx, id)).toMatchObject(tracks.checkpoints);
    await tracks.check?.(ctx, sample);

    if (tokens) {
      // Later checks reuse the token; an expiry at the provider gets exactly one renewal.
      await tracks.beforeReuse?.(ctx, sample);
      expect((await ctx.trackMany([id])).failures).toEqual([]);
      expect(tokens.issued(fake) - tokensBefore).toBe(1);
      tokens.expire(fake);
    }
    desc.delivered.seed(fake, sample.number);
    if (desc.pushKeepsCurrent) {
      // Push keeps it current: the next poll is a day away, a safety net that sees the delivery.
      const { next_check_at } = await trackingRow(app, id);
      expect(next_check_at!.getTime()).toBeGreaterThanOrEqual(NOW.getTime() + 24 * HOUR);
      await ctx.refreshAt(new Date(NOW.getTime() + 25 * HOUR));
    } else {
      expect((await ctx.trackMany([id])).failures).toEqual([]);
    }
    if (tokens) expect(tokens.issued(fake) - tokensBefore).toBe(2);

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      trackingError: null,
    });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(desc.delivered.checkpoints);
    // Final: checked no more, and each status change recorded once.
    expect((await trackingRow(app, id)).next_check_at).toBeNull();
    expect(await ctx.statusChanges(id)).toEqual(
      tracks.statuses ?? [desc.inTransit.status, 'delivered'],
    );
    await tracks.delivered?.(ctx, sample);
  });
}

function declareWebhook<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  webhook: NonNullable<TrackingProviderDescription<F>['webhook']>,
  ctx: ProviderTestContext<F>,
): void {
  it(webhook.title, async () => {
    const { app, tenant } = ctx;
    const sample = await trackedSample(desc, ctx, webhook.seed ?? desc.inTransit.seed);
    const { id } = sample;
    const tracked = await getShipment(app, tenant, id);
    expect(tracked.trackingStatus).toBe(desc.inTransit.status);
    const before = await getCheckpoints(app, tenant, id);
    expect(before).toHaveLength(desc.inTransit.checkpoints);

    const { valid, forged } = webhook.deliveries(ctx, sample.number);
    expect(forged.length).toBeGreaterThan(0);
    for (const send of forged) expect((await send(ctx.webhookUrl())).status).toBe(401);
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: tracked.trackingStatus,
    });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length);

    const pushed = await valid(ctx.webhookUrl());
    expect(pushed.status).toBe(200);
    expect(JSON.parse(pushed.body)).toEqual({ received: 1, applied: 1, unknown: [] });
    expect(await getShipment(app, tenant, id)).toMatchObject(webhook.expect);
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints).toHaveLength(before.length + 1);
    // The checkpoints already stored are the same ones (ids kept), not copies.
    expect(checkpoints.slice(0, before.length).map((c) => c.id)).toEqual(before.map((c) => c.id));

    // The same push again changes nothing and records no second status change.
    expect((await valid(ctx.webhookUrl())).status).toBe(200);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length + 1);
    expect(await ctx.statusChanges(id)).toEqual([
      tracked.trackingStatus,
      webhook.expect.trackingStatus,
    ]);
    await webhook.check?.(ctx, sample);
  });

  it('answers 202 for an unknown number, 404 for unknown credentials or provider', async () => {
    const { number, send } = webhook.stranger(ctx);
    const unknown = await send(ctx.webhookUrl());
    expect(unknown.status).toBe(202);
    expect(JSON.parse(unknown.body)).toEqual({ received: 1, applied: 0, unknown: [number] });
    const [{ n }] = await ctx.db.query(
      `SELECT count(*)::int AS n FROM shipment WHERE tracking_number = $1`,
      [number],
    );
    expect(n).toBe(0);

    expect((await send(ctx.webhookUrl('6b0d1c2e-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await send(ctx.webhookUrl('not-an-id'))).status).toBe(404);
    expect((await send(ctx.webhookUrl(ctx.credentialsId, 'nosuch'))).status).toBe(404);
    // These credentials under another provider's path.
    const other = desc.type === 'aftership' ? '17track' : 'aftership';
    expect((await send(ctx.webhookUrl(ctx.credentialsId, other))).status).toBe(404);
  });
}

function declareOutage<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  ctx: ProviderTestContext<F>,
): void {
  it(`keeps what a shipment has when ${desc.name} is down, records the error and retries`, async () => {
    const { app, tenant, fake } = ctx;
    const { number, id } = await trackedSample(desc, ctx);
    const before = await getShipment(app, tenant, id);
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints).toHaveLength(desc.inTransit.checkpoints);

    desc.delivered.seed(fake, number);
    desc.outage.fail(fake);
    const report = await ctx.trackMany([id]);
    expect(report.failures.map((f) => f.transient)).toEqual([true]);
    if (desc.outage.retryAfterMs !== undefined) {
      expect(report.failures[0].retryAt.getTime()).toBe(NOW.getTime() + desc.outage.retryAfterMs);
    }
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      ...(desc.lastMile ? { destinationCarrier: desc.lastMile } : {}),
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(`${desc.type} answered HTTP ${desc.outage.status}`);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(checkpoints.length);
    const row = await trackingRow(app, id);
    expect(row.next_check_at!.getTime()).toBeGreaterThan(NOW.getTime());

    // When the retry is due, it succeeds and clears the error.
    await ctx.refreshAt(row.next_check_at!);
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      trackingError: null,
    });
  });
}

function declareRateLimit<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  rateLimit: NonNullable<TrackingProviderDescription<F>['rateLimit']>,
  ctx: ProviderTestContext<F>,
): void {
  it(rateLimit.title, async () => {
    const { app, tenant, fake } = ctx;
    const numbers = Array.from({ length: rateLimit.count }, () => desc.number());
    for (const n of numbers) desc.inTransit.seed(fake, n);
    const ids = await insertShipments(app, tenant.workspaceId, numbers, desc.carrier, NOW);
    if (rateLimit.warmUp) await ctx.trackMany([ids[0]]);
    const calls = fake.server.requests.length;
    rateLimit.limit(fake);
    const report = await ctx.trackMany(ids);
    // The refused request was the round's last one to the provider.
    expect(fake.server.requests.length - calls).toBe(1);
    expect(report.failures.map((f) => f.shipmentId).sort()).toEqual([...ids].sort());
    for (const failure of report.failures) {
      expect(failure.transient).toBe(true);
      const delay = failure.retryAt.getTime() - NOW.getTime();
      if (typeof rateLimit.retryAfterMs === 'number') {
        expect(delay).toBe(rateLimit.retryAfterMs);
      } else {
        expect(delay).toBeGreaterThanOrEqual(rateLimit.retryAfterMs.min);
        expect(delay).toBeLessThanOrEqual(rateLimit.retryAfterMs.max);
      }
      const row = await trackingRow(app, failure.shipmentId);
      expect(row.tracking_error).toMatch(/HTTP 429/);
      expect(row.next_check_at).toEqual(failure.retryAt);
    }
  });
}

function declareRejected<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  ctx: ProviderTestContext<F>,
): void {
  const title =
    desc.rejected.title ?? 'flags rejected credentials, notifies the team once and stops asking';
  it(title, async () => {
    const { app, tenant, fake, credentialsId } = ctx;
    const credentials = () => api(app, { token: tenant.token }).json();
    const revoked = await credentials()
      .put(`/credentials/${credentialsId}`, { secrets: desc.rejected.secrets })
      .expect(200);
    expect(revoked.body.rejectedAt).toBeNull();
    const numbers = [desc.number(), desc.number()];
    for (const n of numbers) desc.inTransit.seed(fake, n);
    const ids = await insertShipments(app, tenant.workspaceId, numbers, desc.carrier, NOW);

    const first = await ctx.trackMany(ids);
    expect(first.failures.map((f) => f.transient)).toEqual([false, false]);
    const creds = await credentials().get(`/credentials/${credentialsId}`).expect(200);
    expect(creds.body.rejectedAt).not.toBeNull();
    expect(creds.body.rejectionReason).toMatch(desc.rejected.reason);
    expect((await getShipment(app, tenant, ids[0])).trackingError).toMatch(
      /rejected the credentials/,
    );

    // No retry storm: the next checks do not reach the provider, and the team heard once.
    const calls = fake.server.requests.length;
    const second = await ctx.trackMany(ids);
    expect(second.failures).toHaveLength(2);
    expect(fake.server.requests.length).toBe(calls);
    expect((await trackingRow(app, ids[0])).next_check_at!.getTime()).toBe(
      NOW.getTime() + 24 * HOUR,
    );
    const notes: Array<{ data: string[] }> = await ctx.db.query(
      `SELECT data FROM notification WHERE user_id = $1 AND tag = 'tracking_credentials_rejected'`,
      [tenant.userId],
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toEqual([`/credentials/${credentialsId}`]);

    // Writing the credentials again clears the flag; tracking works again.
    const fixed = await credentials()
      .put(`/credentials/${credentialsId}`, { secrets: desc.credentials(fake).secrets })
      .expect(200);
    expect(fixed.body.rejectedAt).toBeNull();
    expect((await ctx.trackMany(ids)).failures).toEqual([]);
    expect(await getShipment(app, tenant, ids[0])).toMatchObject({
      trackingStatus: desc.inTransit.status,
      trackingError: null,
    });
  });
}

/** Stops queued for a number: where, and the attempts made. */
export async function queuedStops(
  db: DataSource,
  number: string,
): Promise<Array<{ credentials_key: string; attempts: number }>> {
  return db.query(
    `SELECT credentials_key, attempts FROM remote_tracking_stop WHERE tracking_number = $1
      ORDER BY credentials_key`,
    [number],
  );
}

function declareDeleteStop<F extends ProviderFake>(
  desc: TrackingProviderDescription<F>,
  stop: NonNullable<TrackingProviderDescription<F>['stop']>,
  ctx: ProviderTestContext<F>,
): void {
  it(`stops a deleted shipment's number at ${desc.name} after the delete, retrying a failed stop`, async () => {
    const { app, tenant, fake, db } = ctx;
    const { number, id } = await trackedSample(desc, ctx);
    const seen = stop.watch(fake, number);
    await api(app, { token: tenant.token }).delete(`/shipments/${id}`).expect(204);
    // Recorded with the delete; the provider is not called inside the request.
    expect(seen()).toEqual([]);
    expect(await queuedStops(db, number)).toEqual([
      { credentials_key: ctx.credentialsId, attempts: 0 },
    ]);

    // The first attempt fails (throttled or down): kept with its attempt, tried again later.
    stop.fail(fake);
    await ctx.refreshAt(NOW);
    expect(seen()).toEqual([stop.expected(number)]);
    expect(await queuedStops(db, number)).toEqual([
      { credentials_key: ctx.credentialsId, attempts: 1 },
    ]);
    await ctx.refreshAt(new Date(NOW.getTime() + 14 * 60_000));
    expect(seen()).toHaveLength(1);

    // Due again after the backoff (15 minutes): stopped, nothing left queued.
    await ctx.refreshAt(new Date(NOW.getTime() + 15 * 60_000));
    expect(seen()).toEqual([stop.expected(number), stop.expected(number)]);
    expect(await queuedStops(db, number)).toEqual([]);
  });
}
