import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createShipment, createStatus } from './factories/commerce.factory';
import { joinTeam, type Member } from './factories/identity.factory';
import { createTenant, type Tenant } from './factories/tenant.factory';

/**
 * Declared access of write actions: a read-only member of the workspace the request is about
 * gets 403, a member of another team 404 (the workspace's records do not exist for them), and
 * neither changes anything; the same request then succeeds for the workspace's owner.
 */

interface Fixture {
  app: NestExpressApplication;
  /** A number unique within the run, for codes. */
  seq: () => number;
  tenant: Tenant;
  shipment: Record<string, any>;
}

type Call = { method: 'post' | 'put' | 'delete'; path: string; body?: unknown };

const checkpoint = { id: 'acl-1', checkpointDate: new Date().toISOString(), status: 'in_transit' };

const WORKSPACE_WRITES: Array<[string, (f: Fixture) => Call | Promise<Call>]> = [
  [
    'POST /check_tracking_numbers',
    (f) => ({ method: 'post', path: '/check_tracking_numbers', body: { ids: [f.shipment.id] } }),
  ],
  [
    'POST /check_tracking_numbers (by tracking number)',
    (f) => ({
      method: 'post',
      path: '/check_tracking_numbers',
      body: { workspaceId: f.tenant.workspaceId, trackingNumbers: [f.shipment.trackingNumber] },
    }),
  ],
  [
    'POST /check_tracking_numbers_async',
    (f) => ({
      method: 'post',
      path: '/check_tracking_numbers_async',
      body: { ids: [f.shipment['@id']] },
    }),
  ],
  [
    'POST /tracking/ingest',
    (f) => ({
      method: 'post',
      path: '/tracking/ingest',
      body: { shipment: f.shipment['@id'], checkpoints: [checkpoint] },
    }),
  ],
  [
    'POST /tracking/ingest (by tracking number)',
    (f) => ({
      method: 'post',
      path: '/tracking/ingest',
      body: {
        trackingNumber: f.shipment.trackingNumber,
        workspace: `/workspaces/${f.tenant.workspaceId}`,
        checkpoints: [checkpoint],
      },
    }),
  ],
  [
    'POST /statuses/migrate-references',
    async (f) => {
      const code = `from-${f.seq()}`;
      const used = await createShipment(f.app, f.tenant, { shipmentStatus: { code, title: code } });
      const from = used.shipmentStatus;
      const to = await createStatus(f.app, f.tenant, { code: `to-${f.seq()}` });
      return {
        method: 'post',
        path: '/statuses/migrate-references',
        body: { fromStatusId: from['@id'], toStatusId: to.id },
      };
    },
  ],
];

describe('declared access of actions', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let f: Fixture;
  let reader: Member;
  let outsider: Tenant;

  beforeAll(async () => {
    process.env.JOB_WORKERS_ENABLED = 'false';
    app = await createTestApp();
    db = app.get(DataSource);
    const tenant = await createTenant(app);
    reader = await joinTeam(app, tenant, 'member', [tenant.workspaceId]);
    await db.query(`UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1`, [
      reader.userId,
    ]);
    outsider = await createTenant(app);
    let n = 0;
    f = { app, seq: () => ++n, tenant, shipment: await createShipment(app, tenant) };
  });
  afterAll(() => closeTestApp(app));

  const send = (token: string, call: Call) => {
    const client = api(app, { token });
    return call.method === 'delete'
      ? client.delete(call.path)
      : client[call.method](call.path, call.body ?? {});
  };

  it.each(WORKSPACE_WRITES)(
    '%s: 403 for a read-only member, 404 for another team',
    async (_name, make) => {
      const call = await make(f);
      const before = await snapshot(db, f.tenant.workspaceId);
      const refused = await send(reader.token, call).expect(403);
      expect(refused.body['hydra:description']).toBe('Read-only access to this workspace.');
      await send(outsider.token, call).expect(404);
      expect(await snapshot(db, f.tenant.workspaceId)).toEqual(before);
      // The same request is a valid one: the owner's succeeds.
      const done = await send(f.tenant.token, call);
      expect(done.status).toBeLessThan(300);
    },
  );
});

/** What a refused write must leave as it was: the workspace's shipments and checkpoints. */
async function snapshot(db: DataSource, workspaceId: string): Promise<unknown> {
  return db.query(
    `SELECT s.id, s.tracking_status, s.shipment_status_id, s.updated_at,
            (SELECT count(*)::int FROM tracking_checkpoint c WHERE c.shipment_id = s.id) AS checkpoints
       FROM shipment s WHERE s.workspace_id = $1 ORDER BY s.id`,
    [workspaceId],
  );
}
