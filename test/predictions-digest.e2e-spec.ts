import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { EventTypes } from '../src/events/event-types';
import { OutboxStore } from '../src/events/outbox-store';
import { ATTENTION_DIGEST_TAG, AttentionDigest } from '../src/predictions/attention-digest';
import { createShipment } from './factories/commerce.factory';
import { joinTeam, type Member } from './factories/identity.factory';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

/**
 * The in-app digest of prediction and attention events: one notification per workspace and
 * hour to everyone who sees the workspace (owners, admins, members given it), once across
 * nodes, nothing for other hours, workspaces or teams.
 */
describe('in-app digest of attention and prediction events', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let admin: Member;
  let member: Member;
  let elsewhere: Member;
  let stranger: Tenant;
  let shipments: string[];

  // An hour of this test's own, far from any other spec's events.
  const HOUR = new Date('2031-03-04T10:00:00Z');
  const at = (minutes: number) => new Date(HOUR.getTime() + minutes * 60_000);
  const AFTER = at(66); // 11:06: the 10:00-11:00 digest is due

  /** Events as src/predictions records them, dated `when`. */
  const record = (workspaceId: string, type: string, ids: string[], when: Date) =>
    app.get(OutboxStore).record(
      db,
      ids.map((id) => ({
        workspaceId,
        type: type as never,
        aggregateType: 'shipment',
        aggregateId: id,
        payload: { shipment: `/shipments/${id}`, trackingNumber: null },
        occurredAt: when,
      })),
    );

  const digests = async (token: string) => {
    const res = await api(app, { token }).get('/notifications?itemsPerPage=100').expect(200);
    return (res.body['hydra:member'] as Array<Record<string, any>>).filter(
      (n) => n.tag === ATTENTION_DIGEST_TAG,
    );
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    tenant = await createTenant(app, { workspaceTitle: 'Acme Outdoor' });
    admin = await joinTeam(app, tenant, 'admin', [tenant.workspaceId]);
    member = await joinTeam(app, tenant, 'member', [tenant.workspaceId]);
    // A member of the team who was not given this workspace.
    elsewhere = await joinTeam(app, tenant, 'member');
    stranger = await createTenant(app);
    shipments = [];
    for (let i = 0; i < 3; i++) shipments.push((await createShipment(app, tenant)).id);
    await record(tenant.workspaceId, EventTypes.shipmentStalled, shipments.slice(0, 2), at(5));
    await record(tenant.workspaceId, EventTypes.shipmentLate, [shipments[2]], at(59));
    await record(
      tenant.workspaceId,
      EventTypes.shipmentDeliveryPredictionChanged,
      shipments,
      at(30),
    );
    // Outside the hour, and another team's: not in this digest.
    await record(tenant.workspaceId, EventTypes.shipmentException, [shipments[0]], at(60));
    const theirs = await createShipment(app, stranger);
    await record(stranger.workspaceId, EventTypes.shipmentStalled, [theirs.id], at(10));
  });
  afterAll(() => closeTestApp(app));

  it('is not sent before the hour has ended and settled', async () => {
    expect(await app.get(AttentionDigest).digest(at(64))).toBe(0);
    expect(await digests(tenant.token)).toEqual([]);
  });

  it('tells who sees the workspace once, even when two nodes digest at once', async () => {
    const digest = app.get(AttentionDigest);
    const [a, b] = await Promise.all([digest.digest(AFTER), digest.digest(AFTER)]);
    // Each node notifies the workspaces whose claim it won: the two teams, once each.
    expect(a + b).toBe(2);
    for (const token of [tenant.token, admin.token, member.token]) {
      const mine = await digests(token);
      expect(mine).toHaveLength(1);
      expect(mine[0].message).toBe(
        'Acme Outdoor, 10:00–11:00 UTC: 3 parcels started to need attention (1 late, 2 stalled); ' +
          'the delivery estimate of 3 parcels moved by a day or more.',
      );
      expect([...mine[0].data].sort()).toEqual(shipments.map((id) => `/shipments/${id}`).sort());
      expect(mine[0].unread).toBe(true);
    }
    // A member not given the workspace is not told; the other team hears only of its own parcel.
    expect(await digests(elsewhere.token)).toEqual([]);
    const theirs = await digests(stranger.token);
    expect(theirs).toHaveLength(1);
    expect(theirs[0].message).toContain('1 parcel started to need attention (1 stalled)');
    expect(JSON.stringify(theirs)).not.toContain(shipments[0]);
    // Later looks at the same hour change nothing.
    expect(await digest.digest(at(90))).toBe(0);
    expect(await digests(tenant.token)).toHaveLength(1);
  });

  it('digests the next hour on its own', async () => {
    expect(await app.get(AttentionDigest).digest(at(126))).toBe(1);
    const mine = await digests(tenant.token);
    expect(mine.map((n) => n.message)).toContain(
      'Acme Outdoor, 11:00–12:00 UTC: 1 parcel started to need attention (1 exception).',
    );
  });
});
