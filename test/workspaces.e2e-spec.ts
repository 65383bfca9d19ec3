import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { WorkspaceDeletion } from '../src/workspaces/workspace-deletion';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { PNG, uniqueSubdomain as subdomain, upload } from './factories/media.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('workspaces', () => {
  let app: NestExpressApplication;
  let t: Tenant;
  let db: DataSource;

  beforeAll(async () => {
    process.env.WORKSPACE_DELETE_INTERVAL_SECONDS = '0';
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(async () => {
    delete process.env.WORKSPACE_DELETE_INTERVAL_SECONDS;
    await closeTestApp(app);
  });
  beforeEach(async () => {
    t = await createTenant(app);
  });

  describe('reading', () => {
    it('shows every field of the spec', async () => {
      const res = await api(app, { token: t.token })
        .get(`/workspaces/${t.workspaceId}`)
        .expect(200);
      expect(res.body).toMatchObject({
        '@id': `/workspaces/${t.workspaceId}`,
        id: t.workspaceId,
        team: `/teams/${t.teamId}`,
        title: 'Main store',
        defaultTrackingPage: null,
        shipmentsCount: 0,
        workflowsCount: 0,
        widgets: [],
        workflowsOrder: [],
        logo: null,
        emailSettings: { logo: null, signature: null, smtpCredentials: null },
        scheduledForDelete: false,
      });
    });

    it('counts the shipments of each workspace', async () => {
      const second = await addWorkspace(app, t);
      for (const [ws, n] of [
        [t.workspaceId, 2],
        [second, 1],
      ] as const)
        for (let i = 0; i < n; i++)
          await db.query(`INSERT INTO shipment (workspace_id, tracking_number) VALUES ($1, $2)`, [
            ws,
            `TMCOUNT${i}`,
          ]);
      const res = await api(app, { token: t.token }).get('/workspaces?order[createdAt]=asc');
      expect(res.body['hydra:member'].map((w: any) => w.shipmentsCount)).toEqual([2, 1]);
    });

    it('lists its widgets as IRIs', async () => {
      const [w] = await db.query(
        `INSERT INTO widget (workspace_id, title, type) VALUES ($1, 'Track form', 'tracking_form') RETURNING id`,
        [t.workspaceId],
      );
      const res = await api(app, { token: t.token }).get(`/workspaces/${t.workspaceId}`);
      expect(res.body.widgets).toEqual([`/widgets/${w.id}`]);
    });

    it('counts the workflows of each workspace', async () => {
      await db.query(
        `INSERT INTO workflow (workspace_id, title, type, period) VALUES ($1, 'a', 'webhook', 'immediately'), ($1, 'b', 'webhook', 'immediately')`,
        [t.workspaceId],
      );
      const res = await api(app, { token: t.token }).get(`/workspaces/${t.workspaceId}`);
      expect(res.body.workflowsCount).toBe(2);
    });
  });

  describe('defaultTrackingPage', () => {
    it('creates the page from an object on POST', async () => {
      const sub = subdomain();
      const res = await api(app, { token: t.token })
        .post('/workspaces', {
          title: 'Outlet',
          team: `/teams/${t.teamId}`,
          defaultTrackingPage: {
            title: 'Track your order',
            subdomain: sub,
            reviewsEnabled: false,
            builder: { background: { color: '#ffffff' } },
            dropshipperSettings: { enabled: true, originCountryReplacement: 'cn' },
            customThemeId: 'theme-7',
          },
        })
        .expect(201);
      expect(res.body.defaultTrackingPage).toMatch(/^\/tracking_pages\/[0-9a-f-]{36}$/);
      const page = await api(app, { token: t.token }).get(res.body.defaultTrackingPage).expect(200);
      expect(page.body).toMatchObject({
        workspace: res.body['@id'],
        title: 'Track your order',
        subdomain: sub,
        enabled: true,
        reviewsEnabled: false,
        usedByDefault: true,
        builder: { background: { color: '#ffffff' } },
        dropshipperSettings: { enabled: true, originCountryReplacement: 'CN' },
        customThemeId: 'theme-7',
      });
    });

    it('accepts null and an IRI of a page of the same workspace', async () => {
      const created = await api(app, { token: t.token })
        .post('/tracking_pages', {
          workspace: `/workspaces/${t.workspaceId}`,
          subdomain: subdomain(),
        })
        .expect(201);
      const res = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Main', defaultTrackingPage: null })
        .expect(200);
      expect(res.body.defaultTrackingPage).toBeNull();
      const again = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          defaultTrackingPage: created.body['@id'],
        })
        .expect(200);
      expect(again.body.defaultTrackingPage).toBe(created.body['@id']);
    });

    it('refuses a page of another workspace of the caller (422) and a foreign one (422)', async () => {
      const second = await addWorkspace(app, t);
      const page = await api(app, { token: t.token })
        .post('/tracking_pages', { workspace: `/workspaces/${second}`, subdomain: subdomain() })
        .expect(201);
      const res = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          defaultTrackingPage: page.body['@id'],
        })
        .expect(422);
      expect(res.body.violations[0].propertyPath).toBe('defaultTrackingPage');
      const other = await createTenant(app);
      const foreign = await api(app, { token: other.token })
        .post('/tracking_pages', {
          workspace: `/workspaces/${other.workspaceId}`,
          subdomain: subdomain(),
        })
        .expect(201);
      const res2 = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          defaultTrackingPage: foreign.body['@id'],
        })
        .expect(422);
      expect(res2.body.violations[0].message).toBe(`Item not found for "${foreign.body['@id']}".`);
    });

    it('updates the current default page from an object on PUT', async () => {
      const sub = subdomain();
      const first = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          defaultTrackingPage: { subdomain: sub, title: 'One' },
        })
        .expect(200);
      const second = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          defaultTrackingPage: { subdomain: sub, title: 'Two', enabled: false },
        })
        .expect(200);
      expect(second.body.defaultTrackingPage).toBe(first.body.defaultTrackingPage);
      const page = await api(app, { token: t.token })
        .get(second.body.defaultTrackingPage)
        .expect(200);
      expect(page.body).toMatchObject({ title: 'Two', enabled: false, subdomain: sub });
    });

    it.each([
      ['Bad_Sub', 'This value is not valid.'],
      ['ab', 'This value is not valid.'],
      ['-abc', 'This value is not valid.'],
      ['a'.repeat(64), 'This value is too long. It should have 63 characters or less.'],
      ['www', 'This subdomain is already taken.'],
    ])('answers 422 for subdomain %j and changes nothing', async (value, message) => {
      const res = await api(app, { token: t.token })
        .post('/workspaces', {
          title: 'New',
          team: `/teams/${t.teamId}`,
          defaultTrackingPage: { subdomain: value },
        })
        .expect(422);
      expect(res.body.violations).toContainEqual(
        expect.objectContaining({ propertyPath: 'defaultTrackingPage.subdomain', message }),
      );
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM workspace WHERE team_id = $1`,
        [t.teamId],
      );
      expect(n).toBe(1);
    });

    it('keeps subdomains unique across the service', async () => {
      const sub = subdomain();
      const other = await createTenant(app);
      await api(app, { token: other.token })
        .post('/tracking_pages', { workspace: `/workspaces/${other.workspaceId}`, subdomain: sub })
        .expect(201);
      const res = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          defaultTrackingPage: { subdomain: sub },
        })
        .expect(422);
      expect(res.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'defaultTrackingPage.subdomain',
          message: 'This subdomain is already taken.',
        }),
      ]);
    });

    it('answers 400 for a wrong type inside the object', async () => {
      await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          defaultTrackingPage: { subdomain: subdomain(), enabled: 'yes' },
        })
        .expect(400);
      await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Main', defaultTrackingPage: 42 })
        .expect(400);
    });
  });

  describe('logo and emailSettings', () => {
    it('takes a media IRI and reads back {id, filePath}', async () => {
      const media = await upload(app, t.token, PNG).expect(201);
      const res = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          logo: media.body['@id'],
          emailSettings: { logo: media.body['@id'], signature: 'Cheers', junk: 1 },
          workflowsOrder: ['a', 'b'],
        })
        .expect(200);
      expect(res.body.logo).toMatchObject({ id: media.body.id, filePath: media.body.filePath });
      expect(res.body.emailSettings).toEqual({
        logo: { id: media.body.id, filePath: media.body.filePath },
        signature: 'Cheers',
        smtpCredentials: null,
      });
      expect(res.body.workflowsOrder).toEqual(['a', 'b']);
    });

    it('lets a teammate keep a logo another member uploaded', async () => {
      const media = await upload(app, t.token, PNG).expect(201);
      await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Main', logo: media.body['@id'] })
        .expect(200);
      const mate = await createTenant(app);
      await db.query(
        `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'admin')`,
        [t.teamId, mate.userId],
      );
      const res = await api(app, { token: mate.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Main', logo: media.body['@id'] })
        .expect(200);
      expect(res.body.logo.id).toBe(media.body.id);
      await api(app, { token: mate.token }).get(`/media/${media.body.id}`).expect(200);
    });

    it('refuses non-images, foreign media, objects and bad credentials IRIs', async () => {
      const text = await upload(app, t.token, Buffer.from('hello'), 'a.txt').expect(201);
      const r1 = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Main', logo: text.body['@id'] })
        .expect(422);
      expect(r1.body.violations[0]).toMatchObject({
        propertyPath: 'logo',
        message: 'This file is not a valid image.',
      });
      const other = await createTenant(app);
      const foreign = await upload(app, other.token, PNG).expect(201);
      const r2 = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          emailSettings: { logo: foreign.body['@id'] },
        })
        .expect(422);
      expect(r2.body.violations[0].propertyPath).toBe('emailSettings.logo');
      await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Main', logo: { id: 'x' } })
        .expect(400);
      await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          emailSettings: { smtpCredentials: 'nope' },
        })
        .expect(400);
      await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Main', emailSettings: { signature: 5 } })
        .expect(400);
    });

    it('PUT replaces: omitted optional attributes go back to their defaults', async () => {
      const media = await upload(app, t.token, PNG).expect(201);
      await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, {
          title: 'Main',
          logo: media.body['@id'],
          workflowsOrder: ['x'],
          emailSettings: { signature: 'Hi' },
          defaultTrackingPage: { subdomain: subdomain() },
        })
        .expect(200);
      const res = await api(app, { token: t.token })
        .put(`/workspaces/${t.workspaceId}`, { title: 'Renamed' })
        .expect(200);
      expect(res.body).toMatchObject({
        title: 'Renamed',
        logo: null,
        workflowsOrder: [],
        emailSettings: { logo: null, signature: null, smtpCredentials: null },
        defaultTrackingPage: null,
      });
    });
  });

  describe('DELETE', () => {
    it('removes a small workspace and everything in it at once', async () => {
      const second = await addWorkspace(app, t);
      const page = await api(app, { token: t.token })
        .post('/tracking_pages', { workspace: `/workspaces/${second}`, subdomain: subdomain() })
        .expect(201);
      await api(app, { token: t.token }).delete(`/workspaces/${second}`).expect(204);
      await api(app, { token: t.token }).get(`/workspaces/${second}`).expect(404);
      const rows = await db.query(`SELECT id FROM tracking_page WHERE id = $1`, [page.body.id]);
      expect(rows).toEqual([]);
      await api(app, { token: t.token }).delete(`/workspaces/${second}`).expect(404);
    });

    it('removes records that reference each other with RESTRICT (shipment -> status)', async () => {
      const second = await addWorkspace(app, t);
      const [status] = await db.query(
        `INSERT INTO status (workspace_id, entity, code, title) VALUES ($1, 'shipments', 'held', 'Held') RETURNING id`,
        [second],
      );
      await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number, shipment_status_id) VALUES ($1, 'TMRESTRICT1', $2)`,
        [second, status.id],
      );
      await api(app, { token: t.token }).delete(`/workspaces/${second}`).expect(204);
      expect(await db.query(`SELECT 1 FROM status WHERE id = $1`, [status.id])).toEqual([]);
    });

    it('answers 404 for another tenant’s workspace and 403 for a plain member', async () => {
      const other = await createTenant(app);
      await api(app, { token: t.token }).delete(`/workspaces/${other.workspaceId}`).expect(404);
      const member = await createTenant(app, { role: 'member' });
      await api(app, { token: member.token })
        .delete(`/workspaces/${member.workspaceId}`)
        .expect(403);
    });
  });
});

describe('workspace deletion in the background', () => {
  let app: NestExpressApplication;
  let db: DataSource;

  beforeAll(async () => {
    process.env.WORKSPACE_SYNC_DELETE_LIMIT = '2';
    process.env.WORKSPACE_DELETE_BATCH_SIZE = '2';
    process.env.WORKSPACE_DELETE_INTERVAL_SECONDS = '0';
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(async () => {
    delete process.env.WORKSPACE_SYNC_DELETE_LIMIT;
    delete process.env.WORKSPACE_DELETE_BATCH_SIZE;
    delete process.env.WORKSPACE_DELETE_INTERVAL_SECONDS;
    await closeTestApp(app);
  });

  it('schedules a large workspace, hides it at once and removes it in batches', async () => {
    const t = await createTenant(app);
    for (let i = 0; i < 5; i++)
      await db.query(`INSERT INTO shipment (workspace_id, tracking_number) VALUES ($1, $2)`, [
        t.workspaceId,
        `TMBIG${i}`,
      ]);
    const page = await api(app, { token: t.token })
      .post('/tracking_pages', {
        workspace: `/workspaces/${t.workspaceId}`,
        subdomain: subdomain('big'),
      })
      .expect(201);

    await api(app, { token: t.token }).delete(`/workspaces/${t.workspaceId}`).expect(204);
    const [flag] = await db.query(`SELECT scheduled_for_delete FROM workspace WHERE id = $1`, [
      t.workspaceId,
    ]);
    expect(flag.scheduled_for_delete).toBe(true);
    await api(app, { token: t.token }).get(`/workspaces/${t.workspaceId}`).expect(404);
    await api(app, { token: t.token }).get(page.body['@id']).expect(404);
    const list = await api(app, { token: t.token }).get('/workspaces').expect(200);
    expect(list.body['hydra:totalItems']).toBe(0);

    const deletion = app.get(WorkspaceDeletion);
    expect(await deletion.runBatch()).toBe(true);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1`,
      [t.workspaceId],
    );
    expect(n).toBeLessThan(5);
    await deletion.tick(10000);
    expect(await db.query(`SELECT 1 FROM workspace WHERE id = $1`, [t.workspaceId])).toEqual([]);
    expect(
      await db.query(`SELECT 1 FROM shipment WHERE workspace_id = $1`, [t.workspaceId]),
    ).toEqual([]);
  });

  it('never works on a workspace another node holds (SKIP LOCKED)', async () => {
    const t = await createTenant(app);
    await db.query(`UPDATE workspace SET scheduled_for_delete = true WHERE id = $1`, [
      t.workspaceId,
    ]);
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT id FROM workspace WHERE scheduled_for_delete FOR UPDATE`);
      expect(await app.get(WorkspaceDeletion).runBatch()).toBe(false);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await app.get(WorkspaceDeletion).runBatch()).toBe(true);
  });
});
