import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createShipment } from '../factories/commerce.factory';
import { upload } from '../factories/media.factory';

const BILLING_VARIABLES = [
  'BILLING_PROVIDER_URL',
  'BILLING_PROVIDER_API_KEY',
  'BILLING_WEBHOOK_SECRET',
  'BILLING_ENFORCE_ENTITLEMENTS',
];

/**
 * Properties the reference declares that its clients read (Note userPhoto, TeamMember
 * memberPhoto and its embedded team's counts and billing state, Team
 * shopifyBillingWorkflowId), and a self-hosted installation (no billing provider) where every
 * team is on an unlimited plan whose subscription is active, even with enforcement asked for.
 */
describe('reference properties on a self-hosted installation', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const name of BILLING_VARIABLES) saved[name] = process.env[name];
    for (const name of BILLING_VARIABLES) delete process.env[name];
    process.env.BILLING_ENFORCE_ENTITLEMENTS = 'true';
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(async () => {
    await closeTestApp(app);
    for (const name of BILLING_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('shows an active unlimited self-hosted subscription on the team', async () => {
    const res = await api(app, { token: tenant.token }).get(`/teams/${tenant.teamId}`).expect(200);
    expect(res.body).toMatchObject({
      workspacesCount: 1,
      usersCount: 1,
      billingProvider: 'self_hosted',
      shopifyBillingWorkflowId: null,
      subscription: {
        // The reference declares them on the embedded subscription (no route of its own).
        '@id': `/teams/${tenant.teamId}#subscription`,
        '@type': 'Subscription',
        status: 'active',
        planId: 'self_hosted',
        expiresAt: null,
      },
    });
    expect(res.body.entitlements.shipments).toMatchObject({
      capacity: null,
      limitReached: false,
      limitExceeded: false,
    });
  });

  it('applies no plan limit without a billing provider', async () => {
    // The free plan allows one workspace; self-hosted teams have no such limit.
    for (const title of ['Second', 'Third']) {
      await api(app, { token: tenant.token })
        .post('/workspaces', { team: `/teams/${tenant.teamId}`, title })
        .expect(201);
    }
    await createShipment(app, tenant);
  });

  it('shows the photo of note authors and members, and the embedded team in full', async () => {
    const media = (await upload(app, tenant.token).expect(201)).body;
    await api(app, { token: tenant.token })
      .put(`/users/${tenant.userId}`, { photo: media['@id'] })
      .expect(200);
    const shipment = await createShipment(app, tenant);
    const note = await api(app, { token: tenant.token })
      .post('/notes', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        entity: 'shipments',
        entityId: shipment.id,
        comment: 'Called the carrier',
      })
      .expect(201);
    const read = await api(app, { token: tenant.token }).get(note.body['@id']).expect(200);
    expect(read.body.userPhoto).toBe(media.filePath);

    const members = await api(app, { token: tenant.token })
      .get(`/team_members?team.id=${tenant.teamId}`)
      .expect(200);
    const [member] = members.body['hydra:member'];
    expect(member.memberPhoto).toBe(media.filePath);
    expect(member.team).toMatchObject({
      '@id': `/teams/${tenant.teamId}`,
      usersCount: 1,
      billingProvider: 'self_hosted',
      shopifyBillingWorkflowId: null,
      subscription: { '@type': 'Subscription', status: 'active' },
    });
    expect(member.team.workspacesCount).toBeGreaterThanOrEqual(1);
    expect(member.team.entitlements.users.capacity).toBeNull();

    const other = await createTenant(app);
    const theirs = await api(app, { token: other.token })
      .get(`/team_members?team.id=${other.teamId}`)
      .expect(200);
    expect(theirs.body['hydra:member'][0].memberPhoto).toBeNull();
  });
});
