import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { joinTeam } from '../factories/identity.factory';

/**
 * Issue 11.1: read-only workspace members wrote through actions (a fake "delivered"
 * checkpoint was stored and mailed customers; the owner's templates were replaced). Every
 * such action is now a declared `workspace:write`: 403, and nothing changes.
 */
describe('read-only members cannot write through actions', () => {
  let app: NestExpressApplication;
  let owner: Tenant;
  let reader: string;
  let db: DataSource;
  let shipmentId: string;
  let statusA: string;
  let statusB: string;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    owner = await createTenant(app);
    const member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
    await db.query(`UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1`, [
      member.userId,
    ]);
    // The reader may write elsewhere, so only the check of the workspace at hand refuses.
    const [other] = await db.query(
      `INSERT INTO workspace (team_id, title) VALUES ($1, 'Writable elsewhere') RETURNING id`,
      [owner.teamId],
    );
    await db.query(`INSERT INTO workspace_member (workspace_id, user_id) VALUES ($1, $2)`, [
      other.id,
      member.userId,
    ]);
    reader = member.token;
    const http = api(app, { token: owner.token });
    const a = await http
      .post('/statuses', {
        workspace: `/workspaces/${owner.workspaceId}`,
        entity: 'shipments',
        title: 'Old',
        code: 'old',
      })
      .expect(201);
    const b = await http
      .post('/statuses', {
        workspace: `/workspaces/${owner.workspaceId}`,
        entity: 'shipments',
        title: 'New',
        code: 'new',
      })
      .expect(201);
    statusA = a.body.id;
    statusB = b.body.id;
    const s = await http
      .post('/shipments', {
        workspace: `/workspaces/${owner.workspaceId}`,
        trackingNumber: 'TM102READONLY1TM',
        shipmentStatus: `/statuses/${statusA}`,
      })
      .expect(201);
    shipmentId = s.body.id;
  });
  afterAll(() => closeTestApp(app));

  const snapshot = async () =>
    db.query(
      `SELECT s.shipment_status_id, s.tracking_status,
              (SELECT count(*)::int FROM tracking_checkpoint c WHERE c.shipment_id = s.id) AS checkpoints,
              (SELECT count(*)::int FROM email_notification n WHERE n.workspace_id = s.workspace_id) AS notifications
         FROM shipment s WHERE s.id = $1`,
      [shipmentId],
    );

  it.each([
    ['/change_status_batch', () => ({ entity: 'shipments', ids: [shipmentId], statusId: statusB })],
    [
      '/change_status_batch_async',
      () => ({ entity: 'shipments', ids: [shipmentId], statusId: statusB }),
    ],
    ['/statuses/migrate-references', () => ({ fromStatusId: statusA, toStatusId: statusB })],
    [
      '/tracking/ingest',
      () => ({
        shipment: `/shipments/${shipmentId}`,
        checkpoints: [
          {
            id: 'fake-1',
            checkpointDate: '2025-03-01T10:00:00Z',
            status: 'delivered',
            info: 'Delivered',
          },
        ],
      }),
    ],
    ['/email_notifications/reset_defaults', () => ({ id: owner.workspaceId })],
  ])('POST %s answers 403 and changes nothing', async (path, body) => {
    const before = await snapshot();
    const res = await api(app, { token: reader }).post(path, body()).expect(403);
    expect(res.body['@type']).toBe('hydra:Error');
    expect(await snapshot()).toEqual(before);
  });
});
