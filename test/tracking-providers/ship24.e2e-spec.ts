import type { DataSource } from 'typeorm';
import { ship24Event, startShip24Fake, type Ship24Fake } from '../fakes/ship24-fake';
import {
  CHINA_POST_TO_USPS,
  chinaPostToUspsTracks,
  describeTrackingProvider,
  NOW,
  postDelivery,
} from './provider-e2e-harness';
import { getShipment, insertShipments, s10Number } from './provider-e2e-support';

/**
 * An event of a number's journey with a stable `eventId` (like Ship24's: the same event has
 * the same id in every answer and push), `key` telling the journey's events apart.
 */
function event(key: string, fields: Parameters<typeof ship24Event>[0]): Record<string, unknown> {
  return { ...ship24Event(fields), eventId: `${fields.trackingNumber}-${key}` };
}

/** China Post hands the parcel to USPS (Ship24 courier `us-post`); events newest first. */
function inTransitEvents(number: string): Record<string, unknown>[] {
  return [
    event('arrived', {
      trackingNumber: number,
      occurrenceDatetime: '2026-03-08T07:30:00-05:00',
      status: 'Arrived at USPS Regional Facility',
      statusMilestone: 'in_transit',
      location: 'NEW YORK, NY, US',
      courierCode: 'us-post',
    }),
    event('acceptance', {
      trackingNumber: number,
      occurrenceDatetime: '2026-03-02T09:10:00+08:00',
      status: 'Acceptance',
      statusMilestone: 'in_transit',
      statusCode: 'transit_pickup',
      location: 'Shenzhen, China',
      courierCode: 'china-post',
    }),
  ];
}

function deliveredEvents(number: string): Record<string, unknown>[] {
  return [
    event('delivered', {
      trackingNumber: number,
      occurrenceDatetime: '2026-03-09T14:02:00-05:00',
      status: 'Delivered, In/At Mailbox',
      statusMilestone: 'delivered',
      statusCode: 'delivery_delivered',
      location: 'BROOKLYN, NY, US',
      courierCode: 'us-post',
    }),
    ...inTransitEvents(number),
  ];
}

const SHIPMENT = {
  originCountryCode: 'CN',
  destinationCountryCode: 'US',
  delivery: {
    estimatedDeliveryDate: null,
    courierEstimatedDeliveryDate: { from: '2026-03-13', to: '2026-03-14' },
    service: null,
    signedBy: null,
  },
};

const seed = (fake: Ship24Fake, number: string, events: Record<string, unknown>[]) =>
  fake.setTracking(number, { courierCode: ['china-post'], shipment: SHIPMENT, events });

/** The remote tracking state of a shipment. */
async function remoteState(db: DataSource, id: string) {
  const [row] = await db.query(
    `SELECT credentials_key, tracking_number, registered_at, stopped_at
       FROM shipment_remote_tracking WHERE shipment_id = $1`,
    [id],
  );
  return row as {
    credentials_key: string;
    tracking_number: string;
    registered_at: Date | null;
    stopped_at: Date | null;
  };
}

/** The queued stop of a number (a failed one waiting for its next attempt), if any. */
async function queuedStop(db: DataSource, number: string) {
  const [row] = await db.query(
    `SELECT credentials_key, attempts, next_attempt_at, last_error
       FROM remote_tracking_stop WHERE tracking_number = $1`,
    [number],
  );
  return row as
    | { credentials_key: string; attempts: number; next_attempt_at: Date; last_error: string }
    | undefined;
}

const MINUTE = 60_000;
const PATCH_TRACKER = '/public/v1/trackers/';

describeTrackingProvider<Ship24Fake>(
  {
    name: 'Ship24',
    type: 'ship24',
    ...CHINA_POST_TO_USPS,
    start: () => startShip24Fake(),
    credentials: (fake) => ({
      parameters: { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
      secrets: { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
    }),
    inTransit: {
      seed: (fake, number) => seed(fake, number, inTransitEvents(number)),
      status: 'in_transit',
      checkpoints: 2,
    },
    delivered: {
      seed: (fake, number) => seed(fake, number, deliveredEvents(number)),
      checkpoints: 3,
    },
    tracks: {
      ...chinaPostToUspsTracks('2026-03-14T00:00:00+00:00'),
      checkpoints: [
        {
          info: 'Acceptance',
          status: 'in_transit',
          rawStatus: 'in_transit/transit_pickup',
          carrier: 'china-post',
          rel: 'origin',
          location: 'Shenzhen, China',
          countryIso2: 'CN',
          checkpointDate: '2026-03-02T01:10:00.000Z',
        },
        {
          info: 'Arrived at USPS Regional Facility',
          status: 'in_transit',
          rawStatus: 'in_transit',
          carrier: 'usps',
          rel: 'destination',
          location: 'NEW YORK, NY, US',
          countryIso2: 'US',
          checkpointDate: '2026-03-08T12:30:00.000Z',
        },
      ],
      delivered: async ({ db, fake }, { number, id }) => {
        // Final: the tracker is unsubscribed at Ship24 and the registration marked stopped.
        const tracking = fake.trackings.get(number)!;
        expect(fake.trackerPatches().map((r) => [r.path, r.body])).toContainEqual([
          `/public/v1/trackers/${tracking.tracker.trackerId}`,
          { isSubscribed: false },
        ]);
        expect(tracking.tracker.isSubscribed).toBe(false);
        expect((await remoteState(db, id)).stopped_at).not.toBeNull();
        expect(await queuedStop(db, number)).toBeUndefined();
      },
      check: ({ fake }, { number }) => {
        const bulks = fake.server
          .calls('POST', '/public/v1/trackers/bulk')
          .filter((r) => JSON.stringify(r.body).includes(number));
        expect(bulks.map((r) => r.body)).toEqual([[{ trackingNumber: number }]]);
        expect(bulks[0].headers.authorization).toBe(`Bearer ${fake.apiKey}`);
      },
    },
    webhook: {
      title: 'applies a push with the webhook secret; a wrong one is 401 and changes nothing',
      deliveries: ({ fake }, number) => {
        // Ship24 pushes only the events new since its last delivery.
        const tracking = seed(fake, number, deliveredEvents(number).slice(0, 1));
        const anonymous = fake.signedDelivery([tracking]);
        delete anonymous.headers.Authorization;
        return {
          valid: postDelivery(fake.signedDelivery([tracking])),
          forged: [
            postDelivery(fake.signedDelivery([tracking], { secret: fake.apiKey })),
            postDelivery(anonymous),
          ],
        };
      },
      expect: { trackingStatus: 'delivered', destinationCarrier: 'usps' },
      stranger: ({ fake }) => {
        const number = s10Number('CN');
        const tracking = seed(fake, number, inTransitEvents(number));
        return { number, send: postDelivery(fake.signedDelivery([tracking])) };
      },
    },
    outage: {
      fail: (fake) => fake.server.failNext({ status: 503, body: 'Service Unavailable' }),
      status: 503,
    },
    stop: {
      watch: (fake, number) => {
        const path = `${PATCH_TRACKER}${fake.trackings.get(number)!.tracker.trackerId}`;
        return () =>
          fake
            .trackerPatches()
            .filter((r) => r.path === path)
            .map((r) => r.body);
      },
      expected: () => ({ isSubscribed: false }),
      fail: (fake) =>
        fake.server.failNextOn('PATCH', PATCH_TRACKER, {
          status: 500,
          body: { errors: [{ code: 'processing_error', message: 'Try again' }], data: null },
        }),
    },
    rejected: { secrets: { apiKey: 'apik_revoked000000' }, reason: /HTTP 401/ },
  },
  (ctx) => {
    /** A delivered sample, tracked once: its stop at Ship24 is the first one tried. */
    const delivered = async () => {
      const number = s10Number('CN');
      seed(ctx.fake, number, deliveredEvents(number));
      const [id] = await insertShipments(
        ctx.app,
        ctx.tenant.workspaceId,
        [number],
        'china-post',
        NOW,
      );
      return { number, id };
    };
    const patchesOf = (number: string) => {
      const { trackerId } = ctx.fake.trackings.get(number)!.tracker;
      return ctx.fake.trackerPatches().filter((r) => r.path === `${PATCH_TRACKER}${trackerId}`);
    };

    it('retries a stop that failed (500, then 429) on later passes until Ship24 unsubscribes', async () => {
      const { app, db, fake, tenant } = ctx;
      const { number, id } = await delivered();
      fake.server.failNextOn('PATCH', PATCH_TRACKER, {
        status: 500,
        body: { errors: [{ code: 'processing_error', message: 'Try again' }], data: null },
      });
      expect((await ctx.trackMany([id])).failures).toEqual([]);
      expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
      expect(patchesOf(number)).toHaveLength(1);
      expect(fake.trackings.get(number)!.tracker.isSubscribed).toBe(true);
      expect((await remoteState(db, id)).stopped_at).toBeNull();
      const first = await queuedStop(db, number);
      expect(first).toMatchObject({ credentials_key: ctx.credentialsId, attempts: 1 });
      expect(first!.next_attempt_at).toEqual(new Date(NOW.getTime() + 15 * MINUTE));
      expect(first!.last_error).toMatch(/HTTP 500/);

      // Not due yet: a pass sends nothing.
      await ctx.refreshAt(new Date(NOW.getTime() + 14 * MINUTE));
      expect(patchesOf(number)).toHaveLength(1);

      // Due: fails again, Ship24 asking for an hour (longer than the 30 min backoff).
      fake.server.failNextOn('PATCH', PATCH_TRACKER, {
        status: 429,
        headers: { 'Retry-After': '3600', 'Content-Type': 'text/plain' },
        body: 'Too Many Requests',
      });
      const second = new Date(NOW.getTime() + 15 * MINUTE);
      await ctx.refreshAt(second);
      expect(patchesOf(number)).toHaveLength(2);
      expect(await queuedStop(db, number)).toMatchObject({
        attempts: 2,
        next_attempt_at: new Date(second.getTime() + 60 * MINUTE),
        last_error: expect.stringMatching(/HTTP 429/),
      });

      // The third attempt succeeds: unsubscribed, marked stopped, nothing queued.
      await ctx.refreshAt(new Date(second.getTime() + 60 * MINUTE));
      expect(patchesOf(number)).toHaveLength(3);
      expect(patchesOf(number)[2].body).toEqual({ isSubscribed: false });
      expect(fake.trackings.get(number)!.tracker.isSubscribed).toBe(false);
      expect((await remoteState(db, id)).stopped_at).not.toBeNull();
      expect(await queuedStop(db, number)).toBeUndefined();
    });

    it('gives a stop up at a permanent error at once, and after 12 failed attempts', async () => {
      const { db, fake } = ctx;
      // The tracker is gone at Ship24: nothing to stop, nothing to retry.
      const gone = await delivered();
      fake.server.failNextOn('PATCH', PATCH_TRACKER, {
        status: 404,
        body: { errors: [{ code: 'tracker_not_found', message: 'Not found' }], data: null },
      });
      expect((await ctx.trackMany([gone.id])).failures).toEqual([]);
      expect(patchesOf(gone.number)).toHaveLength(1);
      expect(await queuedStop(db, gone.number)).toBeUndefined();
      expect((await remoteState(db, gone.id)).stopped_at).not.toBeNull();

      // Ship24 failing every time: 12 attempts over about 44 hours, then given up.
      const failing = await delivered();
      const outage = { status: 503, body: 'Service Unavailable' };
      fake.server.failNextOn('PATCH', PATCH_TRACKER, ...Array(12).fill(outage));
      await ctx.trackMany([failing.id]);
      const delays: number[] = [];
      for (let attempt = 1; attempt < 12; attempt++) {
        const queued = await queuedStop(db, failing.number);
        expect(queued?.attempts).toBe(attempt);
        delays.push((queued!.next_attempt_at.getTime() - ctx.clock.now().getTime()) / MINUTE);
        await ctx.refreshAt(queued!.next_attempt_at);
      }
      expect(delays).toEqual([15, 30, 60, 120, 240, ...Array(6).fill(360)]);
      expect(patchesOf(failing.number)).toHaveLength(12);
      expect(await queuedStop(db, failing.number)).toBeUndefined();
      // Not stopped (a later push of the final shipment queues it again), still subscribed.
      expect((await remoteState(db, failing.id)).stopped_at).toBeNull();
      expect(fake.trackings.get(failing.number)!.tracker.isSubscribed).toBe(true);

      // Later passes send nothing more for either.
      await ctx.refreshAt(new Date(ctx.clock.now().getTime() + 24 * 60 * MINUTE));
      expect(patchesOf(failing.number)).toHaveLength(12);
      expect(patchesOf(gone.number)).toHaveLength(1);
    });

    it('registers 100 numbers per bulk request', async () => {
      const { app, db, fake, tenant } = ctx;
      const numbers = Array.from({ length: 101 }, () => s10Number('CN'));
      for (const n of numbers) seed(fake, n, inTransitEvents(n));
      const ids = await insertShipments(app, tenant.workspaceId, numbers, 'china-post', NOW);
      const bulkSizes = () =>
        fake.server
          .calls('POST', '/public/v1/trackers/bulk')
          .filter((r) =>
            (r.body as Array<{ trackingNumber: string }>).some((i) =>
              numbers.includes(i.trackingNumber),
            ),
          )
          .map((r) => (r.body as unknown[]).length);
      const round = await ctx.trackMany(ids);
      expect(round.failures).toEqual([]);
      // One full bulk; the partial last batch waits a minute for other rounds to fill it.
      expect(bulkSizes()).toEqual([100]);
      const waiting: Array<{ id: string }> = await db.query(
        `SELECT id FROM shipment
          WHERE id = ANY($1::uuid[]) AND next_check_at = $2 AND tracking_error IS NULL`,
        [ids, new Date(NOW.getTime() + 60_000)],
      );
      expect(waiting).toHaveLength(1);
      const [leftover] = waiting.map((w) => w.id);
      const [{ n: trackedInRound }] = await db.query(
        `SELECT count(*)::int AS n FROM shipment
          WHERE id = ANY($1::uuid[]) AND tracking_status = 'in_transit'`,
        [ids.filter((id) => id !== leftover)],
      );
      expect(trackedInRound).toBe(100);
      expect(await getShipment(app, tenant, leftover)).toMatchObject({ trackingStatus: null });

      // A minute later the leftover is registered (no other round joined it) and tracked.
      await ctx.refreshAt(new Date(NOW.getTime() + 60_000));
      expect(bulkSizes()).toEqual([100, 1]);
      expect(await getShipment(app, tenant, leftover)).toMatchObject({
        trackingStatus: 'in_transit',
      });
    });
  },
);
