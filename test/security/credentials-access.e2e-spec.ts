import type { NestExpressApplication } from '@nestjs/platform-express';
import { CredentialsService } from '../../src/credentials/credentials.service';
import { DataSource } from 'typeorm';
import { joinTeam, type Member } from '../factories/identity.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/**
 * Issue 11 item 2: only a team's owners and admins create, change or delete its credentials
 * (members, read-only ones included, still read them masked); a PUT that changes where
 * credentials connect drops their stored secrets unless it gives new ones.
 */
describe('security: team credentials', () => {
  let app: NestExpressApplication;
  let owner: Tenant;
  let reader: Member;
  let writer: Member;
  let admin: Member;
  let smtpId: string;

  beforeAll(async () => {
    app = await createTestApp();
    owner = await createTenant(app);
    reader = await joinTeam(app, owner, 'member', [owner.workspaceId]);
    await app
      .get(DataSource)
      .query(`UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1`, [
        reader.userId,
      ]);
    writer = await joinTeam(app, owner, 'member', [owner.workspaceId]);
    admin = await joinTeam(app, owner, 'admin');
    smtpId = (
      await api(app, { token: owner.token })
        .post('/credentials', {
          type: 'smtp',
          team: `/teams/${owner.teamId}`,
          parameters: { host: 'smtp.example.com', port: 587, username: 'shop' },
          secrets: { password: 'owner-password-1111' },
        })
        .expect(201)
    ).body.id;
  });
  afterAll(() => closeTestApp(app));

  const opened = async (id: string) =>
    (await app.get(CredentialsService).open(app.get(DataSource), id))!;

  it.each([
    ['a read-only member', () => reader.token],
    ['a member with full workspace access', () => writer.token],
  ])('%s reads credentials but cannot create, change or delete them', async (_who, token) => {
    const http = api(app, { token: token() });
    const read = await http.get(`/credentials/${smtpId}`).expect(200);
    expect(read.body.secrets).toEqual({ password: '********1111' });
    await http.get(`/teams/${owner.teamId}/credentials`).expect(200);
    await http
      .post('/credentials', {
        type: 'webhook',
        team: `/teams/${owner.teamId}`,
        parameters: { url: 'https://attacker.example/hook' },
        secrets: { signingSecret: 'attacker-signing-key-0000' },
      })
      .expect(403);
    await http
      .put(`/credentials/${smtpId}`, { parameters: { host: 'attacker.example', port: 587 } })
      .expect(403);
    await http.delete(`/credentials/${smtpId}`).expect(403);
    const after = await opened(smtpId);
    expect(after.parameters).toEqual({ host: 'smtp.example.com', port: 587, username: 'shop' });
    expect(after.secrets).toEqual({ password: 'owner-password-1111' });
    const [{ n }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM credentials WHERE team_id = $1`, [owner.teamId]);
    expect(n).toBe(1);
  });

  it('a workflow POST by a member cannot create credentials either', async () => {
    await api(app, { token: writer.token })
      .post('/workflows', {
        title: 'Hook',
        type: 'webhook',
        workspace: `/workspaces/${owner.workspaceId}`,
        credentials: {
          type: 'webhook',
          parameters: { url: 'https://attacker.example/hook' },
          secrets: { signingSecret: 'attacker-signing-key-0000' },
        },
      })
      .expect(403);
  });

  it('an admin manages them', async () => {
    const http = api(app, { token: admin.token });
    const created = await http
      .post('/credentials', {
        type: 'webhook',
        team: `/teams/${owner.teamId}`,
        parameters: { url: 'https://hooks.example.com/a' },
        secrets: { signingSecret: 'admin-signing-key-0000' },
      })
      .expect(201);
    await http.delete(`/credentials/${created.body.id}`).expect(204);
  });

  it('changing where credentials connect drops their secrets unless new ones are given', async () => {
    const http = api(app, { token: owner.token });
    const hook = (
      await http
        .post('/credentials', {
          type: 'webhook',
          team: `/teams/${owner.teamId}`,
          parameters: { url: 'https://hooks.example.com/a' },
          secrets: { signingSecret: 'first-signing-key-1111' },
        })
        .expect(201)
    ).body.id;
    const moved = await http
      .put(`/credentials/${hook}`, { parameters: { url: 'https://elsewhere.example/b' } })
      .expect(200);
    expect(moved.body.secrets).toEqual({});
    expect((await opened(hook)).secrets).toEqual({});

    const smtp = await http
      .put(`/credentials/${smtpId}`, {
        parameters: { host: 'mail.example.net', port: 465, username: 'shop' },
        secrets: { password: 'second-password-2222' },
      })
      .expect(200);
    expect(smtp.body.secrets).toEqual({ password: '********2222' });
    expect((await opened(smtpId)).secrets).toEqual({ password: 'second-password-2222' });

    const port = await http
      .put(`/credentials/${smtpId}`, {
        parameters: { host: 'mail.example.net', port: 25, username: 'shop' },
      })
      .expect(200);
    expect(port.body.secrets).toEqual({});
  });
});
