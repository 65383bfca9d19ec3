import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { Clock } from '../src/tracking/clock';
import { TrackingProviderRegistry } from '../src/tracking/providers';
import { SANDBOX_PREFIX_STATUSES, sandboxExpectedStatus } from '../src/tracking/providers/sandbox';
import { TrackingRefresher } from '../src/tracking/refresh/tracking-refresher';
import { testTrackingNumber } from './factories/commerce.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const DAY = 86_400_000;

describe('tracking engine', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let refresher: TrackingRefresher;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    clock = app.get(Clock);
    refresher = app.get(TrackingRefresher);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterEach(() => {
    clock.reset();
    jest.restoreAllMocks();
  });
  afterAll(() => closeTestApp(app));

  const post = (body: Record<string, unknown>) =>
    api(app, { token: tenant.token }).post('/shipments', {
      workspace: `/workspaces/${tenant.workspaceId}`,
      ...body,
    });
  const get = (path: string) => api(app, { token: tenant.token }).get(path);

  /** Inserts shipments straight into the table, as an import would: due at once, untracked. */
  async function insertShipments(numbers: string[], carrier = 'tm-test'): Promise<string[]> {
    const rows: Array<{ id: string }> = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier)
       SELECT $1, n, $3 FROM unnest($2::text[]) AS n RETURNING id`,
      [tenant.workspaceId, numbers, carrier],
    );
    return rows.map((r) => r.id);
  }

  /** Refreshes until nothing due is left (every due shipment of this database). */
  const refreshAll = () => refresher.runUntilIdle(200);

  describe('sandbox numbers', () => {
    const prefixes = Object.keys(SANDBOX_PREFIX_STATUSES);

    it.each(prefixes)('TM%s...TM gets its documented status on POST', async (prefix) => {
      const number = testTrackingNumber(prefix);
      const res = await post({ trackingNumber: number }).expect(201);
      expect(res.body.originCarrier).toBe('tm-test');
      expect(res.body.trackingStatus).toBe(SANDBOX_PREFIX_STATUSES[prefix]);
      expect(res.body.lastStatusUpdate).not.toBeNull();
    });

    it('every prefix gets its documented status through a refresh round', async () => {
      const numbers = prefixes.map((p) => testTrackingNumber(p));
      const ids = await insertShipments(numbers);
      const before = await db.query(
        `SELECT count(*)::int AS n FROM shipment WHERE id = ANY($1) AND tracking_status IS NULL`,
        [ids],
      );
      expect(before[0].n).toBe(numbers.length);
      const round = await refreshAll();
      expect(round.refreshed).toBeGreaterThanOrEqual(numbers.length);
      for (const [i, id] of ids.entries()) {
        const res = await get(`/shipments/${id}`).expect(200);
        expect([numbers[i], res.body.trackingStatus]).toEqual([
          numbers[i],
          sandboxExpectedStatus(numbers[i]),
        ]);
      }
    });

    it('fills the read-only fields from the journey: days, dates, countries, carrier', async () => {
      const res = await post({ trackingNumber: testTrackingNumber('200') }).expect(201);
      const s = res.body;
      expect(s.trackingStatus).toBe('delivered');
      expect(s.shippedAt).toEqual(expect.any(String));
      expect(s.daysInTransit).toEqual(expect.any(Number));
      expect(s.daysInIdle).toEqual(expect.any(Number));
      expect(s.originCountryIso2).toMatch(/^[A-Z]{2}$/);
      expect(s.destinationCountryIso2).toMatch(/^[A-Z]{2}$/);
      expect(s.originCountry).toEqual(expect.any(String));
      expect(s.destinationCarrier).toBe('tm-test');
      expect(s.expectedDeliveryDate).toEqual(expect.any(String));
      expect(Date.parse(s.shippedAt)).toBeLessThan(Date.parse(s.createdAt));
    });

    it('a number no carrier answers for is no_info (fallback provider)', async () => {
      const res = await post({ trackingNumber: 'ZZZ987', originCarrier: 'ups' }).expect(201);
      expect(res.body.trackingStatus).toBe('no_info');
      expect(res.body.daysInIdle).toBe(0);
      expect(res.body.daysInTransit).toBeNull();
    });

    it('a shipment without a tracking number has no tracking status and is never refreshed', async () => {
      const res = await post({}).expect(201);
      expect(res.body.trackingStatus).toBeNull();
      const [row] = await db.query(`SELECT next_check_at FROM shipment WHERE id = $1`, [
        res.body.id,
      ]);
      expect(row.next_check_at).toBeNull();
    });
  });

  describe('carrier suggestions', () => {
    it('an ambiguous number is refused with suggestions, then tracked once the carrier is given', async () => {
      const refused = await post({ trackingNumber: '287809468872' }).expect(422);
      expect(refused.body.suggestedCarriers.map((c: { code: string }) => c.code)).toEqual([
        'fedex',
        'purolator',
      ]);
      const ok = await post({ trackingNumber: '287809468872', originCarrier: 'fedex' }).expect(201);
      expect(ok.body.originCarrier).toBe('fedex');
      expect(ok.body.trackingStatus).toBe('no_info');
      expect(ok.body.daysInIdle).toBe(0);
    });
  });

  describe('checkpoints', () => {
    it('are listed per shipment, ordered and paginated, on every nested path', async () => {
      const created = await post({ trackingNumber: testTrackingNumber('200') }).expect(201);
      const id = created.body.id;
      const asc = await get(`/shipments/${id}/checkpoints?order%5BcheckpointDate%5D=asc`).expect(
        200,
      );
      expect(asc.body['@context']).toBe('/contexts/TrackingCheckpoint');
      const members = asc.body['hydra:member'];
      expect(members.length).toBeGreaterThan(3);
      expect(asc.body['hydra:totalItems']).toBe(members.length);
      const dates = members.map((m: { checkpointDate: string }) => Date.parse(m.checkpointDate));
      expect(dates).toEqual([...dates].sort((a, b) => a - b));
      expect(members[0]).toMatchObject({
        '@type': 'TrackingCheckpoint',
        shipment: `/shipments/${id}`,
        status: 'pre_transit',
        rel: 'origin',
        carrier: 'tm-test',
      });
      expect(members[members.length - 1].status).toBe('delivered');
      expect(asc.body['hydra:search']['hydra:template']).toBe(
        `/shipments/${id}/checkpoints{?order[checkpointDate],workspace.id,workspace.id[]}`,
      );

      const desc = await get(
        `/shipments/${id}/checkpoints?order%5BcheckpointDate%5D=desc&itemsPerPage=2&page=2`,
      ).expect(200);
      expect(desc.body['hydra:member'].map((m: { id: string }) => m.id)).toEqual(
        [...members]
          .reverse()
          .slice(2, 4)
          .map((m: { id: string }) => m.id),
      );
      expect(desc.body['hydra:view']['hydra:previous']).toContain('page=1');

      const viaWorkspace = await get(
        `/workspaces/${tenant.workspaceId}/shipments/${id}/checkpoints`,
      ).expect(200);
      expect(viaWorkspace.body['hydra:totalItems']).toBe(members.length);
      const viaTeam = await get(
        `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/shipments/${id}/checkpoints`,
      ).expect(200);
      expect(viaTeam.body['hydra:totalItems']).toBe(members.length);

      const one = await get(members[0]['@id']).expect(200);
      expect(one.body).toMatchObject({ '@id': members[0]['@id'], shipment: `/shipments/${id}` });

      const all = await get('/tracking_checkpoints').expect(200);
      expect(all.body['hydra:totalItems']).toBe(members.length);
    });

    it('are invisible to another tenant (404 on every path, nothing in the list)', async () => {
      const created = await post({ trackingNumber: testTrackingNumber('102') }).expect(201);
      const id = created.body.id;
      const list = await get(`/shipments/${id}/checkpoints`).expect(200);
      const checkpoint = list.body['hydra:member'][0]['@id'];
      const other = await createTenant(app);
      const http = api(app, { token: other.token });
      await http.get(`/shipments/${id}/checkpoints`).expect(404);
      await http.get(`/workspaces/${tenant.workspaceId}/shipments/${id}/checkpoints`).expect(404);
      await http.get(`/workspaces/${other.workspaceId}/shipments/${id}/checkpoints`).expect(404);
      await http.get(checkpoint).expect(404);
      const all = await http.get('/tracking_checkpoints').expect(200);
      expect(all.body['hydra:totalItems']).toBe(0);
      await http.get('/shipments/not-a-uuid/checkpoints').expect(404);
      await api(app).get(`/shipments/${id}/checkpoints`).expect(401);
    });

    it('are stored once however often the shipment is tracked', async () => {
      const created = await post({ trackingNumber: testTrackingNumber('204') }).expect(201);
      const id = created.body.id;
      const count = async () =>
        (
          await db.query(
            `SELECT count(*)::int AS n FROM tracking_checkpoint WHERE shipment_id = $1`,
            [id],
          )
        )[0].n;
      const first = await count();
      await api(app, { token: tenant.token })
        .post('/check_tracking_numbers', { ids: [id] })
        .expect(200);
      await api(app, { token: tenant.token })
        .post('/check_tracking_numbers', { ids: [id] })
        .expect(200);
      expect(await count()).toBe(first);
    });
  });

  describe('status changes go to the outbox', () => {
    it('writes one shipment.status_changed event per change, none when nothing changed', async () => {
      const created = await post({ trackingNumber: testTrackingNumber('102') }).expect(201);
      const id = created.body.id;
      const events = () =>
        db.query(
          `SELECT type, workspace_id, payload FROM outbox_event WHERE aggregate_id = $1 AND type = 'shipment.status_changed' ORDER BY created_at`,
          [id],
        );
      expect(await events()).toEqual([
        {
          type: 'shipment.status_changed',
          workspace_id: tenant.workspaceId,
          payload: expect.objectContaining({
            shipment: `/shipments/${id}`,
            previousStatus: null,
            trackingStatus: 'in_transit',
          }),
        },
      ]);
      await api(app, { token: tenant.token })
        .post('/check_tracking_numbers', { ids: [id] })
        .expect(200);
      expect(await events()).toHaveLength(1);
      // 61 days later the parcel is over the transit limit: a second event.
      clock.set(new Date(Date.now() + 61 * DAY));
      await api(app, { token: tenant.token })
        .post('/check_tracking_numbers', { ids: [id] })
        .expect(200)
        .then((r) => expect(r.body.trackingStatus).toBe('transit_limit_exceeded'));
      const all = await events();
      expect(all).toHaveLength(2);
      expect(all[1].payload).toMatchObject({
        previousStatus: 'in_transit',
        trackingStatus: 'transit_limit_exceeded',
      });
    });
  });

  describe('day counters with a controllable clock', () => {
    it('daysInTransit grows while in transit, refreshed in the background', async () => {
      const created = await post({ trackingNumber: testTrackingNumber('102') }).expect(201);
      const id = created.body.id;
      const startDays = created.body.daysInTransit;
      expect(startDays).toBeGreaterThanOrEqual(0);
      expect(created.body.daysInIdle).toEqual(expect.any(Number));
      clock.set(new Date(Date.now() + 5 * DAY));
      await refreshAll();
      const later = await get(`/shipments/${id}`).expect(200);
      expect(later.body.trackingStatus).toBe('in_transit');
      expect(later.body.daysInTransit).toBe(
        Math.floor((clock.now().getTime() - Date.parse(created.body.shippedAt)) / DAY),
      );
      expect(later.body.daysInTransit).toBeGreaterThanOrEqual(startDays + 4);
      // The idle days stopped when the parcel moved.
      expect(later.body.daysInIdle).toBe(created.body.daysInIdle);
    });

    it('daysInIdle counts while no information comes, then the shipment expires after 30 days', async () => {
      const created = await post({ trackingNumber: testTrackingNumber('403') }).expect(201);
      const id = created.body.id;
      expect(created.body).toMatchObject({
        trackingStatus: 'no_info',
        daysInIdle: 0,
        daysInTransit: null,
      });
      const createdAt = Date.parse(created.body.createdAt);
      clock.set(new Date(createdAt + 2 * DAY + 60_000));
      await refreshAll();
      expect((await get(`/shipments/${id}`)).body).toMatchObject({
        trackingStatus: 'no_info',
        daysInIdle: 2,
      });
      clock.set(new Date(createdAt + 31 * DAY));
      await refreshAll();
      const expired = (await get(`/shipments/${id}`)).body;
      expect(expired).toMatchObject({ trackingStatus: 'expired', daysInIdle: 30 });
      expect(Date.parse(expired.lastStatusUpdate)).toBe(createdAt + 30 * DAY);
      const [row] = await db.query(`SELECT next_check_at FROM shipment WHERE id = $1`, [id]);
      expect(row.next_check_at).toBeNull();
      // Final: later rounds leave it alone.
      const spy = jest.spyOn(app.get(TrackingProviderRegistry), 'track');
      clock.set(new Date(createdAt + 60 * DAY));
      await refreshAll();
      expect(spy.mock.calls.map((c) => c[0])).not.toContain(created.body.trackingNumber);
    });

    it('daysInTransit stops counting at delivery', async () => {
      const created = await post({ trackingNumber: testTrackingNumber('200') }).expect(201);
      clock.set(new Date(Date.now() + 10 * DAY));
      const res = await api(app, { token: tenant.token })
        .post('/check_tracking_numbers', { ids: [created.body['@id']] })
        .expect(200);
      expect(res.body.trackingStatus).toBe('delivered');
      expect(res.body.daysInTransit).toBe(created.body.daysInTransit);
    });
  });

  describe('slow carriers', () => {
    it('a create does not wait past the timeout; a job tracks the shipment within seconds', async () => {
      const registry = app.get(TrackingProviderRegistry);
      const real = registry.track.bind(registry);
      let slow = true;
      jest.spyOn(registry, 'track').mockImplementation(async (...args) => {
        if (slow) {
          slow = false;
          await new Promise((r) => setTimeout(r, 3000));
        }
        return real(...args);
      });
      const started = Date.now();
      const created = await post({ trackingNumber: testTrackingNumber('202') }).expect(201);
      expect(Date.now() - started).toBeLessThan(2900);
      expect(created.body.trackingStatus).toBeNull();
      let status: string | null = null;
      for (let i = 0; i < 40 && status === null; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = (await get(`/shipments/${created.body.id}`)).body.trackingStatus;
      }
      expect(status).toBe('available_for_pickup');
    });
  });
});
