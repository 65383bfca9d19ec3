import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createShipment, createStatus, testTrackingNumber } from './factories/commerce.factory';
import { joinTeam, type Member } from './factories/identity.factory';
import { PNG, upload } from './factories/media.factory';
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

type Call = {
  method: 'post' | 'put' | 'delete';
  path: string;
  body?: unknown;
  /**
   * What a member of another team gets when not 404: a resource body naming another tenant's
   * workspace is the reference's 422 (an IRI that resolves to nothing), as for CRUD.
   */
  outsider?: number;
};

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
  [
    'POST /fields',
    (f) => ({
      method: 'post',
      path: '/fields',
      body: { ...fieldBody(f), code: `acl_${f.seq()}` },
      outsider: 422,
    }),
  ],
  [
    'PUT /fields/{code}',
    async (f) => {
      const code = `acl_${f.seq()}`;
      await owner(f)
        .post('/fields', { ...fieldBody(f), code })
        .expect(201);
      return { method: 'put', path: `/fields/${code}`, body: { title: 'Changed' } };
    },
  ],
  [
    'DELETE /fields/{code}',
    async (f) => {
      const code = `acl_${f.seq()}`;
      await owner(f)
        .post('/fields', { ...fieldBody(f), code })
        .expect(201);
      return { method: 'delete', path: `/fields/${code}` };
    },
  ],
  [
    'POST /fields_layouts',
    (f) => ({
      method: 'post',
      path: '/fields_layouts',
      body: { ...layoutBody(f), code: `acl-${f.seq()}` },
      outsider: 422,
    }),
  ],
  [
    'PUT /fields_layouts/{code}',
    async (f) => {
      const code = `acl-${f.seq()}`;
      await owner(f)
        .post('/fields_layouts', { ...layoutBody(f), code })
        .expect(201);
      return { method: 'put', path: `/fields_layouts/${code}`, body: { ...layoutBody(f), code } };
    },
  ],
  [
    'DELETE /fields_layouts/{code}',
    async (f) => {
      const code = `acl-${f.seq()}`;
      await owner(f)
        .post('/fields_layouts', { ...layoutBody(f), code })
        .expect(201);
      return { method: 'delete', path: `/fields_layouts/${code}` };
    },
  ],
  ...(['/imports/pre-upload', '/imports'] as const).map((path): [string, (f: Fixture) => Call] => [
    `POST ${path}`,
    (f) => ({
      method: 'post',
      path,
      body: {
        workspace: `/workspaces/${f.tenant.workspaceId}`,
        content: `tracking_number\n${testTrackingNumber()}\n`,
      },
      outsider: 422,
    }),
  ]),
  [
    'POST /notes/{id}/attachments',
    async (f) => {
      const note = await owner(f)
        .post('/notes', {
          workspace: `/workspaces/${f.tenant.workspaceId}`,
          entity: 'shipments',
          entityId: f.shipment.id,
          comment: 'Access check',
        })
        .expect(201);
      const media = await upload(f.app, f.tenant.token, PNG, 'acl.png').expect(201);
      return {
        method: 'post',
        path: `/notes/${note.body.id}/attachments`,
        body: { media: media.body['@id'] },
      };
    },
  ],
  [
    'POST /workflows/execute',
    (f) => ({
      method: 'post',
      path: '/workflows/execute',
      body: { workspace: `/workspaces/${f.tenant.workspaceId}` },
      outsider: 422,
    }),
  ],
];

const owner = (f: Fixture) => api(f.app, { token: f.tenant.token });
const fieldBody = (f: Fixture) => ({
  workspace: `/workspaces/${f.tenant.workspaceId}`,
  entity: 'orders',
  title: 'Access check',
  fieldType: 'text',
});
const layoutBody = (f: Fixture) => ({
  workspace: `/workspaces/${f.tenant.workspaceId}`,
  entity: 'shipments',
  title: 'Access check',
  fields: ['trackingNumber'],
});

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
    '%s: 403 for a read-only member, 404 (or 422) for another team',
    async (_name, make) => {
      const call = await make(f);
      const before = await snapshot(db, f.tenant.workspaceId);
      const refused = await send(reader.token, call).expect(403);
      expect(refused.body['hydra:description']).toBe('Read-only access to this workspace.');
      await send(outsider.token, call).expect(call.outsider ?? 404);
      expect(await snapshot(db, f.tenant.workspaceId)).toEqual(before);
      // The same request is a valid one: the owner's succeeds.
      const done = await send(f.tenant.token, call);
      expect(done.status).toBeLessThan(300);
    },
  );

  it('POST /workflows/execute without a workspace runs only the workspaces the caller may write', async () => {
    const hook = await owner(f)
      .post('/workflows', {
        title: 'Access check',
        type: 'webhook',
        workspace: `/workspaces/${f.tenant.workspaceId}`,
        enabled: true,
        period: 'manual',
        credentials: {
          type: 'webhook',
          team: null,
          parameters: { url: 'https://hooks.example.com/acl' },
          secrets: { signingSecret: 'whsec_0123456789abcdef' },
        },
      })
      .expect(201);
    const read = await api(app, { token: reader.token }).post('/workflows/execute', {}).expect(200);
    expect(read.body.workflows).toEqual([]);
    const ran = await owner(f).post('/workflows/execute', {}).expect(200);
    expect(ran.body.workflows).toEqual([hook.body['@id']]);
  });
});

/** Team billing: owners and admins only (`team:admin`). */
const TEAM_ADMIN_ACTIONS = [
  ['/billing/subscribe_to_trial', {}],
  ['/billing/billing_provider/create_session', {}],
  ['/billing/billing_provider/created_hosted_page_checkout', { planId: 'pro' }],
  ['/billing/billing_provider/downgrade_subscription', { planId: 'starter' }],
  ['/billing/billing_provider/get_subscription_estimate', { planId: 'pro' }],
  ['/billing/storefront/checkout_subscription', { planId: 'pro', returnUrl: 'https://x.test/' }],
] as const;

describe('declared team access of actions', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let member: Member;
  let outsider: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
    // A member with full access to the team's workspace: still not a team admin.
    member = await joinTeam(app, tenant, 'member', [tenant.workspaceId]);
    outsider = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it.each(TEAM_ADMIN_ACTIONS)(
    'POST %s: 403 for a plain member, 404 for another team',
    async (path, extra) => {
      const body = { teamId: `/teams/${tenant.teamId}`, ...extra };
      const refused = await api(app, { token: member.token }).post(path, body).expect(403);
      expect(refused.body['hydra:description']).toBe(
        'Only owners and admins of the team may do this.',
      );
      await api(app, { token: outsider.token }).post(path, body).expect(404);
      const [row] = await app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM subscription WHERE team_id = $1`, [tenant.teamId]);
      expect(row.n).toBe(0);
    },
  );
});

/** What a refused write must leave as it was: the workspace's records the actions change. */
async function snapshot(db: DataSource, workspaceId: string): Promise<unknown> {
  const [shipments, fields, layouts, imports, attachments] = await Promise.all([
    db.query(
      `SELECT s.id, s.tracking_status, s.shipment_status_id, s.updated_at,
              (SELECT count(*)::int FROM tracking_checkpoint c WHERE c.shipment_id = s.id) AS checkpoints
         FROM shipment s WHERE s.workspace_id = $1 ORDER BY s.id`,
      [workspaceId],
    ),
    db.query(`SELECT * FROM field WHERE workspace_id = $1 ORDER BY id`, [workspaceId]),
    db.query(`SELECT * FROM fields_layout WHERE workspace_id = $1 ORDER BY id`, [workspaceId]),
    db.query(`SELECT id FROM import WHERE workspace_id = $1 ORDER BY id`, [workspaceId]),
    db.query(`SELECT id FROM note_attachment WHERE workspace_id = $1 ORDER BY id`, [workspaceId]),
  ]);
  return { shipments, fields, layouts, imports, attachments };
}
