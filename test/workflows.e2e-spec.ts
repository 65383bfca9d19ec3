import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { joinTeam } from './factories/identity.factory';
import { PNG, upload } from './factories/media.factory';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('workflows', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const http = () => api(app, { token: tenant.token });
  const workspace = () => `/workspaces/${tenant.workspaceId}`;
  const hookCredentials = (url = 'https://hooks.example.com/tracking') => ({
    type: 'webhook',
    team: null,
    parameters: { url },
    secrets: { signingSecret: 'whsec_0123456789abcdef' },
  });
  const webhook = (extra: Record<string, unknown> = {}) =>
    http().post('/workflows', {
      title: 'Status changes to our ERP',
      type: 'webhook',
      workspace: workspace(),
      enabled: true,
      period: 'immediately',
      credentials: hookCredentials(),
      ...extra,
    });
  /** A PUT body restating a workflow as read, with `changes` applied (PUT replaces). */
  const restated = (record: Record<string, any>, changes: Record<string, unknown> = {}) => ({
    title: record.title,
    type: record.type,
    workspace: record.workspace,
    credentials: record.credentials,
    notificationEmails: record.notificationEmails,
    enabled: record.enabled,
    period: record.period,
    integration: record.integration?.['@id'] ?? null,
    firstTimeSetupPassed: record.firstTimeSetupPassed,
    ...changes,
  });
  const integration = (type: string, extra: Record<string, unknown> = {}) =>
    http().post('/workflows', {
      title: `${type} store`,
      type,
      workspace: workspace(),
      enabled: true,
      period: 'daily',
      ...extra,
    });

  describe('POST /workflows', () => {
    it('creates a webhook with its credentials from an object and answers the IRI', async () => {
      const res = await webhook({ notificationEmails: ['ops@example.com'] }).expect(201);
      expect(res.headers.location).toBe(`/workflows/${res.body.id}`);
      expect(res.body).toMatchObject({
        '@context': '/contexts/Workflow',
        '@type': 'Workflow',
        title: 'Status changes to our ERP',
        type: 'webhook',
        workspace: workspace(),
        credentials: expect.stringMatching(/^\/credentials\/[0-9a-f-]{36}$/),
        notificationEmails: ['ops@example.com'],
        enabled: true,
        lastRunDate: null,
        period: 'immediately',
        integration: null,
        firstTimeSetupPassed: false,
        tags: ['outgoing', 'webhook'],
        integrationType: 'webhook',
        passive: false,
        remote: false,
        firstTimeSetupRequired: false,
        runInProgress: false,
      });
      const credentials = await http().get(res.body.credentials).expect(200);
      expect(credentials.body).toMatchObject({
        type: 'webhook',
        team: `/teams/${tenant.teamId}`,
        secrets: { signingSecret: '********cdef' },
      });
    });

    it('derives the read-only facts from the type and ignores them in bodies', async () => {
      const res = await integration('shopify', {
        passive: false,
        remote: false,
        tags: ['x'],
        lastRunDate: '2020-01-01T00:00:00Z',
        runInProgress: true,
        firstTimeSetupRequired: false,
      }).expect(201);
      expect(res.body).toMatchObject({
        integrationType: 'ecommerce',
        passive: true,
        remote: true,
        tags: ['ecommerce', 'incoming'],
        lastRunDate: null,
        runInProgress: false,
        firstTimeSetupRequired: true,
      });
      const done = await http()
        .put(res.body['@id'], restated(res.body, { firstTimeSetupPassed: true }))
        .expect(200);
      expect(done.body).toMatchObject({
        firstTimeSetupPassed: true,
        firstTimeSetupRequired: false,
      });
    });

    it('answers 422 for missing or invalid fields', async () => {
      const empty = await http().post('/workflows', {}).expect(422);
      const paths = empty.body.violations.map((v: { propertyPath: string }) => v.propertyPath);
      expect(paths).toEqual(expect.arrayContaining(['title', 'type', 'workspace', 'period']));
      const bad = await integration('ftp', { period: 'weekly' }).expect(422);
      expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(
        expect.arrayContaining(['type', 'period']),
      );
      const mails = await integration('api', {
        notificationEmails: ['ok@example.com', 'nope'],
      }).expect(422);
      expect(mails.body.violations[0].propertyPath).toBe('notificationEmails[1]');
      await integration('api', { integration: 'not an iri' }).expect(400);
      await integration('api', { integration: `/shipments/${tenant.workspaceId}` }).expect(400);
      await integration('api', { integration: 7 }).expect(400);
      await integration('api', { credentials: 7 }).expect(400);
      await integration('api', {
        workspace: '/workspaces/00000000-0000-4000-8000-000000000000',
      }).expect(422);
      const other = await createTenant(app);
      const foreignTeam = await webhook({
        credentials: { ...hookCredentials(), team: `/teams/${other.teamId}` },
      }).expect(422);
      expect(foreignTeam.body.violations[0].propertyPath).toBe('credentials.team');
      await webhook({ credentials: { ...hookCredentials(), type: 5 } }).expect(400);
      await http().post('/workflows/execute', { workspace: 5 }).expect(400);
      await integration('api', { enabled: 'yes' }).expect(400);
      await integration('api', { notificationEmails: 'a@b.c' }).expect(400);
    });

    it('requires an enabled webhook to have a public URL and a signing secret', async () => {
      const none = await webhook({ credentials: null }).expect(422);
      expect(none.body.violations[0]).toMatchObject({ propertyPath: 'credentials' });
      const noSecret = await webhook({
        credentials: { type: 'webhook', parameters: { url: 'https://hooks.example.com/' } },
      }).expect(422);
      expect(noSecret.body['hydra:description']).toMatch(/signingSecret/);
      for (const url of [
        'http://10.0.0.5/hook',
        'http://192.168.1.1/hook',
        'http://127.0.0.1:8080/hook',
        'http://[::1]/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://localhost/hook',
      ]) {
        const res = await webhook({ credentials: hookCredentials(url) }).expect(422);
        expect(res.body['hydra:description']).toMatch(/private, loopback or link-local/);
      }
      const ftp = await webhook({ credentials: hookCredentials('ftp://example.com/x') }).expect(
        422,
      );
      expect(ftp.body.violations[0].propertyPath).toBe('credentials.parameters.url');
      // A disabled webhook may be saved unfinished.
      await webhook({ credentials: null, enabled: false }).expect(201);
      // Nothing was half-created by the refused requests.
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM credentials WHERE team_id = $1`,
        [tenant.teamId],
      );
      expect(n).toBe(0);
    });

    it('checks credentials: IRI on PUT, same team, type that suits the workflow', async () => {
      const created = await webhook().expect(201);
      await http().put(created.body['@id'], { credentials: hookCredentials() }).expect(400);
      const smtp = await http()
        .post('/credentials', { type: 'smtp', team: `/teams/${tenant.teamId}` })
        .expect(201);
      const wrongType = await http()
        .put(created.body['@id'], restated(created.body, { credentials: smtp.body['@id'] }))
        .expect(422);
      expect(wrongType.body['hydra:description']).toMatch(/credentials of type webhook/);
      const other = await createTenant(app);
      const foreign = await api(app, { token: other.token })
        .post('/credentials', { type: 'webhook', team: `/teams/${other.teamId}` })
        .expect(201);
      const notFound = await http()
        .put(created.body['@id'], restated(created.body, { credentials: foreign.body['@id'] }))
        .expect(422);
      expect(notFound.body.violations[0].message).toMatch(/Item not found/);
      const unlinked = await http()
        .put(created.body['@id'], restated(created.body, { credentials: null, enabled: false }))
        .expect(200);
      expect(unlinked.body.credentials).toBeNull();
    });

    it('creates a nested integration from an object and links existing ones by IRI', async () => {
      const res = await integration('api', {
        integration: { title: 'Shop', type: 'shopify', period: 'daily', enabled: true },
      }).expect(201);
      expect(res.body.integration).toMatchObject({
        '@id': expect.stringMatching(/^\/workflows\//),
        '@type': 'Workflow',
        title: 'Shop',
        type: 'shopify',
      });
      const inner = await http().get(res.body.integration['@id']).expect(200);
      expect(inner.body.workspace).toBe(workspace());
      const bad = await integration('api', {
        integration: { title: 'Bad', type: 'nope', period: 'daily' },
      }).expect(422);
      expect(bad.body.violations[0].propertyPath).toBe('integration.type');
      // A loop is refused.
      const loop = await http()
        .put(inner.body['@id'], restated(inner.body, { integration: res.body['@id'] }))
        .expect(422);
      expect(loop.body.violations[0].propertyPath).toBe('integration');
      const self = await http()
        .put(res.body['@id'], restated(res.body, { integration: res.body['@id'] }))
        .expect(422);
      expect(self.body.violations[0].propertyPath).toBe('integration');
      // Another workspace's workflow is refused.
      const second = await addWorkspace(app, tenant);
      const elsewhere = await http()
        .post('/workflows', {
          title: 'Other',
          type: 'api',
          workspace: `/workspaces/${second}`,
          enabled: true,
          period: 'daily',
        })
        .expect(201);
      const foreign = await http()
        .put(res.body['@id'], restated(res.body, { integration: elsewhere.body['@id'] }))
        .expect(422);
      expect(foreign.body.violations[0].propertyPath).toBe('integration');
      const unlinked = await http()
        .put(res.body['@id'], restated(res.body, { integration: null }))
        .expect(200);
      expect(unlinked.body.integration).toBeNull();
    });
  });

  describe('PUT /workflows/{id} replaces the writable state', () => {
    const paths = (res: { body: { violations: Array<{ propertyPath: string }> } }) =>
      res.body.violations.map((v) => v.propertyPath).sort();

    it('puts attributes the body leaves out back to their POST defaults; ignores read-only ones', async () => {
      const shopCredentials = await http()
        .post('/credentials', { type: 'shopify', team: `/teams/${tenant.teamId}` })
        .expect(201);
      const created = await integration('shopify', {
        credentials: shopCredentials.body['@id'],
        notificationEmails: ['ops@example.com', 'cto@example.com'],
        enabled: false,
        firstTimeSetupPassed: true,
        integration: { title: 'Inner', type: 'api', period: 'daily' },
      }).expect(201);
      expect(created.body).toMatchObject({
        credentials: shopCredentials.body['@id'],
        enabled: false,
        firstTimeSetupPassed: true,
        firstTimeSetupRequired: false,
        integration: { title: 'Inner' },
      });
      const subset = {
        title: 'Renamed',
        type: 'shopify',
        workspace: workspace(),
        period: 'hourly',
      };
      const res = await http()
        .put(created.body['@id'], {
          ...subset,
          id: '00000000-0000-4000-8000-000000000000',
          tags: ['x'],
          passive: false,
          remote: false,
          lastRunDate: '2020-01-01T00:00:00Z',
          runInProgress: true,
          firstTimeSetupRequired: false,
        })
        .expect(200);
      expect(res.body).toMatchObject({
        '@id': created.body['@id'],
        id: created.body.id,
        title: 'Renamed',
        period: 'hourly',
        credentials: null,
        notificationEmails: [],
        enabled: true,
        integration: null,
        firstTimeSetupPassed: false,
        // Read-only facts follow the type and the reset setup flag, never the body.
        tags: ['ecommerce', 'incoming'],
        passive: true,
        remote: true,
        lastRunDate: null,
        runInProgress: false,
        firstTimeSetupRequired: true,
      });
      // Exactly what a POST of the same body stores.
      const posted = await http().post('/workflows', subset).expect(201);
      expect(restated(res.body)).toEqual(restated(posted.body));
      const stored = await http().get(created.body['@id']).expect(200);
      expect(restated(stored.body)).toEqual(restated(res.body));
      // Only the links went: the credentials (secrets and all) and the inner workflow stay.
      const credentials = await http().get(shopCredentials.body['@id']).expect(200);
      expect(credentials.body.type).toBe('shopify');
      await http().get(created.body.integration['@id']).expect(200);
    });

    it('replaces a nested integration object instead of merging it into the linked one', async () => {
      const created = await integration('api', {
        notificationEmails: ['ops@example.com'],
        integration: {
          title: 'Shop',
          type: 'shopify',
          period: 'daily',
          enabled: false,
          firstTimeSetupPassed: true,
          notificationEmails: ['shop@example.com'],
        },
      }).expect(201);
      const before = created.body.integration;
      const res = await http()
        .put(
          created.body['@id'],
          restated(created.body, {
            integration: { title: 'Shop 2', type: 'shopify', period: 'hourly' },
          }),
        )
        .expect(200);
      expect(res.body.notificationEmails).toEqual(['ops@example.com']);
      expect(res.body.integration['@id']).not.toBe(before['@id']);
      const inner = await http().get(res.body.integration['@id']).expect(200);
      expect(inner.body).toMatchObject({
        title: 'Shop 2',
        type: 'shopify',
        period: 'hourly',
        workspace: workspace(),
        enabled: true,
        firstTimeSetupPassed: false,
        notificationEmails: [],
        credentials: null,
        integration: null,
      });
      const old = await http().get(before['@id']).expect(200);
      expect(restated(old.body)).toMatchObject({
        title: 'Shop',
        enabled: false,
        firstTimeSetupPassed: true,
        notificationEmails: ['shop@example.com'],
      });
    });

    it('refuses invalid bodies as POST does (400, 422) and changes nothing', async () => {
      const created = await webhook({ notificationEmails: ['ops@example.com'] }).expect(201);
      const iri = created.body['@id'];
      const row = async () =>
        (await db.query(`SELECT * FROM workflow WHERE id = $1`, [created.body.id]))[0];
      const before = await row();

      // Required attributes left out: the violations of a POST without them.
      const put = await http().put(iri, { enabled: false }).expect(422);
      const post = await http().post('/workflows', { enabled: false }).expect(422);
      expect(paths(put)).toEqual(paths(post));
      expect(paths(put)).toEqual(['period', 'title', 'type', 'workspace']);
      // An enabled webhook whose credentials are left out has none: refused, not unlinked.
      const noCredentials = await http()
        .put(iri, restated(created.body, { credentials: undefined }))
        .expect(422);
      expect(paths(noCredentials)).toEqual(['credentials']);
      const email = await http()
        .put(iri, restated(created.body, { notificationEmails: ['ops@example.com', 'nope'] }))
        .expect(422);
      expect(paths(email)).toEqual(['notificationEmails[1]']);
      const choices = await http()
        .put(iri, restated(created.body, { type: 'ftp', period: 'weekly' }))
        .expect(422);
      expect(paths(choices)).toEqual(['period', 'type']);
      const missing = await http()
        .put(
          iri,
          restated(created.body, { workspace: '/workspaces/00000000-0000-4000-8000-000000000000' }),
        )
        .expect(422);
      expect(paths(missing)).toEqual(['workspace']);
      const typed = await http()
        .put(iri, restated(created.body, { enabled: 'yes' }))
        .expect(400);
      expect(typed.body['hydra:description']).toBe(
        'The type of the "enabled" attribute must be "bool", "string" given.',
      );
      await http()
        .put(iri, restated(created.body, { notificationEmails: 'a@example.com' }))
        .expect(400);
      await http()
        .put(iri, restated(created.body, { integration: 7 }))
        .expect(400);
      await http()
        .put(iri, restated(created.body, { credentials: hookCredentials() }))
        .expect(400);

      expect(await row()).toEqual(before);
      const stored = await http().get(iri).expect(200);
      expect(restated(stored.body)).toEqual(restated(created.body));
    });

    it('answers 404 for another tenant’s workflow and leaves it alone', async () => {
      const created = await integration('api', { notificationEmails: ['ops@example.com'] }).expect(
        201,
      );
      const other = await createTenant(app);
      const them = api(app, { token: other.token });
      await them
        .put(
          created.body['@id'],
          restated(created.body, {
            title: 'Taken',
            workspace: `/workspaces/${other.workspaceId}`,
          }),
        )
        .expect(404);
      await them.put(created.body['@id'], { title: 'Taken' }).expect(404);
      const stored = await http().get(created.body['@id']).expect(200);
      expect(stored.body).toMatchObject({
        title: 'api store',
        workspace: workspace(),
        notificationEmails: ['ops@example.com'],
        updatedAt: created.body.updatedAt,
      });
    });
  });

  describe('lists', () => {
    it('filters by type, period, title, tag, integration, setup flags and orders by createdAt', async () => {
      const hook = (await webhook({ title: 'Hook' }).expect(201)).body.id;
      const shop = (
        await integration('shopify', {
          title: 'Shop',
          firstTimeSetupPassed: true,
          period: 'hourly',
        }).expect(201)
      ).body.id;
      const ship = (await integration('shipstation', { title: 'Ship' }).expect(201)).body.id;
      const withIntegration = (
        await integration('api', { title: 'Api', integration: `/workflows/${shop}` }).expect(201)
      ).body.id;
      const ids = async (query: string, base = '/workflows') =>
        (await http().get(`${base}${query}`).expect(200)).body['hydra:member'].map(
          (m: { id: string }) => m.id,
        );
      expect(await ids('')).toEqual([withIntegration, ship, shop, hook]);
      expect(await ids('?order[createdAt]=asc')).toEqual([hook, shop, ship, withIntegration]);
      expect(await ids('?type=webhook')).toEqual([hook]);
      expect(await ids('?type[]=shopify&type[]=shipstation&order[createdAt]=asc')).toEqual([
        shop,
        ship,
      ]);
      expect(await ids('?period=hourly')).toEqual([shop]);
      expect(await ids('?period[]=daily&order[createdAt]=asc')).toEqual([ship, withIntegration]);
      expect(await ids('?title=Ship')).toEqual([ship]);
      expect(await ids('?tag=fulfillment')).toEqual([ship]);
      expect(await ids('?tag=incoming&order[createdAt]=asc')).toEqual([
        shop,
        ship,
        withIntegration,
      ]);
      expect(await ids('?exists[integration]=true')).toEqual([withIntegration]);
      expect(await ids('?exists[integration]=false&order[createdAt]=asc')).toEqual([
        hook,
        shop,
        ship,
      ]);
      expect(await ids('?firstTimeSetupPassed=true')).toEqual([shop]);
      expect(await ids('?first_time_setup_required=true')).toEqual([ship]);
      expect(await ids('?first_time_setup_required=false&order[createdAt]=asc')).toEqual([
        hook,
        shop,
        withIntegration,
      ]);
      expect(await ids('?type=webhook', `/workspaces/${tenant.workspaceId}/workflows`)).toEqual([
        hook,
      ]);
      expect(
        await ids(
          '?type=webhook',
          `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/workflows`,
        ),
      ).toEqual([hook]);
      const res = await http().get('/workflows?type=webhook').expect(200);
      const template: string = res.body['hydra:search']['hydra:template'];
      for (const v of [
        'type',
        'type[]',
        'period',
        'period[]',
        'title',
        'order[createdAt]',
        'tag',
        'exists[integration]',
        'firstTimeSetupPassed',
        'first_time_setup_required',
      ]) {
        expect(template).toContain(v);
      }
    });

    it('keeps other tenants out: 404 on items and nested lists, nothing in lists', async () => {
      const created = await webhook().expect(201);
      const other = await createTenant(app);
      const them = api(app, { token: other.token });
      await them.get(created.body['@id']).expect(404);
      await them.put(created.body['@id'], { title: 'x' }).expect(404);
      await them.delete(created.body['@id']).expect(404);
      await them.get(`/workspaces/${tenant.workspaceId}/workflows`).expect(404);
      await them.get(`${created.body['@id']}/runs`).expect(404);
      await them
        .get(`/workspaces/${tenant.workspaceId}/workflows/${created.body.id}/runs`)
        .expect(404);
      const list = await them.get('/workflows').expect(200);
      expect(list.body['hydra:totalItems']).toBe(0);
      await them
        .post('/workflows', {
          title: 'x',
          type: 'api',
          workspace: workspace(),
          enabled: true,
          period: 'daily',
        })
        .expect(422);
    });
  });

  describe('runs', () => {
    it('lists a workflow’s runs on every route, filtered by status, and deletes them with it', async () => {
      const created = await webhook().expect(201);
      const id = created.body.id;
      const insert = (status: string, at: string) =>
        db.query(
          `INSERT INTO workflow_run (workspace_id, workflow_id, status, response_code, started_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
          [tenant.workspaceId, id, status, status === 'success' ? 200 : 500, at],
        );
      const [[failed], [ok], [running]] = [
        await insert('failed', '2025-01-01T10:00:00Z'),
        await insert('success', '2025-01-01T11:00:00Z'),
        await insert('running', '2025-01-01T12:00:00Z'),
      ];
      const ids = async (path: string) =>
        (await http().get(path).expect(200)).body['hydra:member'].map((m: { id: string }) => m.id);
      expect(await ids(`/workflows/${id}/runs`)).toEqual([running.id, ok.id, failed.id]);
      expect(await ids(`/workflows/${id}/runs?order[createdAt]=asc`)).toEqual([
        failed.id,
        ok.id,
        running.id,
      ]);
      expect(await ids(`/workflows/${id}/runs?status=failed`)).toEqual([failed.id]);
      expect(await ids(`/workflows/${id}/runs?status[]=failed&status[]=success`)).toEqual([
        ok.id,
        failed.id,
      ]);
      expect(
        await ids(`/workspaces/${tenant.workspaceId}/workflows/${id}/runs?status=success`),
      ).toEqual([ok.id]);
      expect(
        await ids(`/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/workflows/${id}/runs`),
      ).toHaveLength(3);
      expect(await ids('/workflow_runs?status=running')).toEqual([running.id]);
      const one = await http().get(`/workflow_runs/${ok.id}`).expect(200);
      expect(one.body).toMatchObject({
        '@type': 'WorkflowRun',
        workflow: `/workflows/${id}`,
        workspace: workspace(),
        status: 'success',
        responseCode: 200,
        startedAt: '2025-01-01T11:00:00+00:00',
      });
      const wf = await http().get(`/workflows/${id}`).expect(200);
      expect(wf.body.runInProgress).toBe(true);
      // Another workspace's workflow id in the workspace route is 404.
      const second = await addWorkspace(app, tenant);
      await http()
        .get(`/workspaces/${second}/workflows/${id}/runs`)
        .expect(200)
        .then((r) => expect(r.body['hydra:totalItems']).toBe(0));
      await http().delete(`/workflows/${id}`).expect(204);
      await http().get(`/workflow_runs/${ok.id}`).expect(404);
    });
  });

  describe('moved to another workspace', () => {
    it('takes the notes on it and on its runs along, with their reminders and files', async () => {
      const second = await addWorkspace(app, tenant);
      const oldMember = await joinTeam(app, tenant, 'member', [tenant.workspaceId]);
      const newMember = await joinTeam(app, tenant, 'member', [second]);
      const as = (member: { token: string }) => api(app, { token: member.token });
      const created = await webhook().expect(201);
      const staying = await webhook({ title: 'Stays' }).expect(201);
      const [run] = await db.query(
        `INSERT INTO workflow_run (workspace_id, workflow_id, status, response_code, started_at)
         VALUES ($1, $2, 'failed', 500, now()) RETURNING id`,
        [tenant.workspaceId, created.body.id],
      );
      const shared = await upload(app, oldMember.token, PNG, 'shared.png').expect(201);
      const own = await upload(app, oldMember.token, PNG, 'own.png').expect(201);
      const note = async (entity: string, entityId: string, body: Record<string, unknown>) =>
        (
          await as(oldMember)
            .post('/notes', { workspace: workspace(), entity, entityId, ...body })
            .expect(201)
        ).body;
      const onWorkflow = await note('workflows', created.body.id, {
        comment: 'Ask ops about the ERP',
        attachment: shared.body['@id'],
      });
      const onRun = await note('workflow_runs', run.id, { comment: 'Timed out' });
      // A note of the old workspace on the same file: the file stays visible to it there.
      const kept = await note('workflows', staying.body.id, {
        comment: 'Same file',
        attachment: shared.body['@id'],
      });
      await as(oldMember)
        .post(`${onWorkflow['@id']}/attachments`, { media: own.body['@id'] })
        .expect(201);
      const remindAt = new Date(Date.now() + 3600_000).toISOString();
      const reminder = (
        await as(oldMember)
          .post('/note_reminders', { note: onWorkflow['@id'], remindAt })
          .expect(201)
      ).body;
      const movedPaths = [
        onWorkflow['@id'],
        onRun['@id'],
        `${onWorkflow['@id']}/attachments`,
        `${onWorkflow['@id']}/reminders`,
        reminder['@id'],
      ];
      for (const path of movedPaths) await as(newMember).get(path).expect(404);

      await http()
        .put(created.body['@id'], restated(created.body, { workspace: `/workspaces/${second}` }))
        .expect(200);

      const listed = async (member: { token: string }, path: string) =>
        (await as(member).get(path).expect(200)).body['hydra:member']
          .map((m: { '@id': string }) => m['@id'])
          .sort();
      // The old workspace's members no longer see them...
      for (const path of movedPaths) await as(oldMember).get(path).expect(404);
      expect(await listed(oldMember, '/notes')).toEqual([kept['@id']]);
      expect(await listed(oldMember, `/notes?entityId=${created.body.id}`)).toEqual([]);
      expect(await listed(oldMember, '/note_reminders')).toEqual([]);
      // ... the new one's do, on every route.
      expect(await listed(newMember, '/notes')).toEqual([onWorkflow['@id'], onRun['@id']].sort());
      expect(await listed(newMember, `/workspaces/${second}/notes`)).toEqual(
        [onWorkflow['@id'], onRun['@id']].sort(),
      );
      expect(await listed(newMember, `/notes?entity=workflow_runs&entityId=${run.id}`)).toEqual([
        onRun['@id'],
      ]);
      expect(await listed(newMember, `${onWorkflow['@id']}/reminders`)).toEqual([reminder['@id']]);
      const moved = await as(newMember).get(onWorkflow['@id']).expect(200);
      expect(moved.body).toMatchObject({
        workspace: `/workspaces/${second}`,
        comment: 'Ask ops about the ERP',
        user: `/users/${oldMember.userId}`,
        attachment: { filePath: shared.body.filePath },
      });
      await as(newMember).get(onRun['@id']).expect(200);
      expect(
        await db.query(
          `SELECT DISTINCT workspace_id FROM note_reminder WHERE note_id = $1
           UNION SELECT DISTINCT workspace_id FROM note_attachment WHERE note_id = $1`,
          [onWorkflow.id],
        ),
      ).toEqual([{ workspace_id: second }]);
      const files = await as(newMember).get(`${onWorkflow['@id']}/attachments`).expect(200);
      expect(files.body['hydra:totalItems']).toBe(2);
      for (const file of files.body['hydra:member']) {
        await as(newMember).get(`/media/${file.media.id}`).expect(200);
        await request(app.getHttpServer()).get(file.media.filePath).expect(200);
      }
      // The shared file got a media row of the new workspace; the old row stays for the note
      // that stayed. The file only the moved note used left the old workspace altogether.
      expect(moved.body.attachment.id).not.toBe(shared.body.id);
      const stayed = await as(oldMember).get(kept['@id']).expect(200);
      expect(stayed.body.attachment.id).toBe(shared.body.id);
      await as(newMember).get(`/media/${shared.body.id}`).expect(404);
      expect(await db.query(`SELECT workspace_id FROM media WHERE id = $1`, [own.body.id])).toEqual(
        [],
      );
    });
  });

  describe('actions', () => {
    it('stores suggestions', async () => {
      const res = await http()
        .post('/workflows/submit-suggestion', { comment: '  Please add Etsy  ' })
        .expect(200);
      expect(res.body).toMatchObject({ '@type': 'WorkflowSuggestion', comment: 'Please add Etsy' });
      const rows = await db.query(`SELECT comment FROM workflow_suggestion WHERE user_id = $1`, [
        tenant.userId,
      ]);
      expect(rows).toEqual([{ comment: 'Please add Etsy' }]);
      await http().post('/workflows/submit-suggestion', { comment: '  ' }).expect(422);
      await http().post('/workflows/submit-suggestion', {}).expect(422);
      await http().post('/workflows/submit-suggestion', { comment: 5 }).expect(400);
      await api(app).post('/workflows/submit-suggestion', { comment: 'x' }).expect(401);
    });

    it('execute answers the executable workflows it ran', async () => {
      const hook = await webhook({ period: 'manual' }).expect(201);
      await integration('shopify').expect(201);
      const res = await http().post('/workflows/execute', {}).expect(200);
      expect(res.body).toMatchObject({
        '@type': 'WorkflowExecution',
        workflows: [hook.body['@id']],
        runs: [],
      });
      await http().post('/workflows/execute', { workspace: '/workspaces/nope' }).expect(422);
    });
  });
});
