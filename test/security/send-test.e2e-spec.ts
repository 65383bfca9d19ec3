import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { addTeamMemberByEmail, joinTeam } from '../factories/identity.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { startTestSmtp, type TestSmtp } from '../support/smtp';

/**
 * Issue 11 item 8: `send_test` is no open relay: write access to the workspace, recipients
 * limited to the caller's own verified address and the team's members, and a budget.
 */
describe('security: send_test recipients', () => {
  let app: NestExpressApplication;
  let smtp: TestSmtp;
  let tenant: Tenant;
  let notificationId: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    process.env.SMTP_URL = smtp.url;
    app = await createTestApp();
    tenant = await createTenant(app);
    notificationId = (
      await api(app, { token: tenant.token })
        .post('/email_notifications', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          event: 'shipment.delivered',
          title: 'Delivered',
          subject: 'Delivered',
          body: '<p>Hi</p>',
        })
        .expect(201)
    ).body.id;
  });
  afterAll(async () => {
    process.env = saved;
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
    await smtp.close();
  });

  const sendTest = (token: string, email?: string) =>
    api(app, { token }).post('/email_notifications/send_test', { id: notificationId, email });

  it('refuses an address outside the team, and sends nothing', async () => {
    const res = await sendTest(tenant.token, 'victim@elsewhere.example').expect(422);
    expect(res.body.violations[0].propertyPath).toBe('email');
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.messages.some((m) => m.to.includes('victim@elsewhere.example'))).toBe(false);
  });

  it('sends to the caller and to a verified member of the team', async () => {
    await sendTest(tenant.token).expect(200);
    await smtp.waitFor(tenant.email, /Delivered/);
    const member = `teammate-${Date.now()}@example.test`;
    await addTeamMemberByEmail(app, tenant, member);
    await sendTest(tenant.token, member).expect(200);
    await smtp.waitFor(member, /Delivered/);
  });

  it('an unverified member address is refused', async () => {
    const email = `unverified-${Date.now()}@example.test`;
    const userId = await addTeamMemberByEmail(app, tenant, email);
    await app
      .get(DataSource)
      .query(`UPDATE "user" SET email_verified = false WHERE id = $1`, [userId]);
    await sendTest(tenant.token, email).expect(422);
  });

  it('a read-only member may not send', async () => {
    const reader = await joinTeam(app, tenant, 'member', [tenant.workspaceId]);
    await app
      .get(DataSource)
      .query(`UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1`, [
        reader.userId,
      ]);
    await sendTest(reader.token).expect(403);
  });

  it('stops a caller after its budget with 429 and Retry-After', async () => {
    const sender = await joinTeam(app, tenant, 'member', [tenant.workspaceId]);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await sendTest(sender.token)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });
});
