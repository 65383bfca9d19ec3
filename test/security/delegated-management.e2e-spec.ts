import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { delegatedGrant, joinTeam, setPassword, type Member } from '../factories/identity.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

const PASSWORD = 'owner password 123';
const REFUSED = /third-party application/;

/**
 * Issue 22 finding 2: a token a third-party application got through the authorization-code
 * flow acts on the owner's data, but never manages who may do what: it cannot invite an
 * accomplice as team admin, promote or remove members, grant workspace access, delete or
 * rename the team, nor start billing. Every refusal is a 403 that changes nothing; the account
 * holder's own token still does all of it.
 */
describe('security: third-party tokens manage no members, permissions, teams or billing', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let owner: Tenant;
  let member: Member;
  let delegated: string;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    owner = await createTenant(app);
    await setPassword(app, owner.userId, PASSWORD);
    member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
    const partner = await createTenant(app);
    delegated = (await delegatedGrant(app, partner, owner, PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await db?.query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  /** Memberships, permissions, the team and its billing: what a refusal must leave as it was. */
  const snapshot = async () => ({
    members: await db.query(
      `SELECT id, member_id, invited_email, role FROM team_member WHERE team_id = $1 ORDER BY id`,
      [owner.teamId],
    ),
    access: await db.query(
      `SELECT id, user_id, access_level FROM workspace_member WHERE workspace_id = $1 ORDER BY id`,
      [owner.workspaceId],
    ),
    team: await db.query(`SELECT id, name FROM team WHERE id = $1`, [owner.teamId]),
    subscriptions: await db.query(`SELECT id FROM subscription WHERE team_id = $1`, [owner.teamId]),
    credentials: await db.query(`SELECT id FROM credentials WHERE team_id = $1`, [owner.teamId]),
  });

  const workspaceMemberOf = async (userId: string): Promise<string> =>
    (
      await db.query(`SELECT id FROM workspace_member WHERE workspace_id = $1 AND user_id = $2`, [
        owner.workspaceId,
        userId,
      ])
    )[0].id;

  it('acts on the owner’s data and reads the team', async () => {
    const http = api(app, { token: delegated });
    await http
      .post('/shipments', {
        workspace: `/workspaces/${owner.workspaceId}`,
        trackingNumber: 'TM102DELEGATEDTM',
      })
      .expect(201);
    await http.get('/team_members').expect(200);
    await http.get(`/teams/${owner.teamId}`).expect(200);
  });

  it('cannot invite, promote, remove, grant, rename, delete or bill (403, nothing changes)', async () => {
    const http = api(app, { token: delegated });
    const before = await snapshot();
    const attempts = [
      http.post('/team_members', {
        team: `/teams/${owner.teamId}`,
        invitedEmail: 'accomplice@partner.example',
        teamAdmin: true,
      }),
      http.put(`/team_members/${member.teamMemberId}`, { teamAdmin: true }),
      http.post(`/team_members/${member.teamMemberId}/resend_invite`, {}),
      http.delete(`/team_members/${member.teamMemberId}`),
      http.post('/workspace_permissions_batch', {
        inviteMode: true,
        changes: [
          {
            email: 'accomplice@partner.example',
            permissions: [{ workspaceId: owner.workspaceId, accessLevel: 'full' }],
          },
        ],
      }),
      http.put(`/workspace_members/${await workspaceMemberOf(member.userId)}`, {
        accessLevel: 'read',
      }),
      http.delete(`/workspace_members/${await workspaceMemberOf(member.userId)}`),
      http.put(`/teams/${owner.teamId}`, { name: 'Taken over' }),
      http.delete(`/teams/${owner.teamId}`),
      http.delete(`/workspaces/${owner.workspaceId}`),
      http.post('/billing/subscribe_to_trial', { teamId: `/teams/${owner.teamId}` }),
      // Credentials given inside a workflow are written through the same declaration.
      http.post('/workflows', {
        title: 'Exfiltrate',
        type: 'webhook',
        workspace: `/workspaces/${owner.workspaceId}`,
        period: 'manual',
        credentials: {
          type: 'webhook',
          parameters: { url: 'https://partner.example/hook' },
          secrets: { signingSecret: 'partner-signing-key-00' },
        },
      }),
    ];
    const answers: string[] = [];
    for (const attempt of attempts) {
      const res = await attempt;
      const { method, url } = attempt as unknown as { method: string; url: string };
      answers.push(`${method} ${new URL(url).pathname} -> ${res.status}`);
      if (res.status === 403) expect(res.body['hydra:description']).toMatch(REFUSED);
    }
    expect(answers.filter((a) => !a.endsWith('-> 403'))).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('the owner’s own token still manages members', async () => {
    const http = api(app, { token: owner.token });
    await http.put(`/team_members/${member.teamMemberId}`, { teamAdmin: true }).expect(200);
    await http
      .post('/team_members', {
        team: `/teams/${owner.teamId}`,
        invitedEmail: `invitee-${Date.now()}@example.test`,
      })
      .expect(201);
  });
});

describe('security: the OpenAPI description says which operations refuse third-party tokens', () => {
  let app: NestExpressApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));

  it('names the refusal and its 403 where the declarations refuse, and only there', async () => {
    const doc = (await api(app).json().get('/docs.json').expect(200)).body;
    const op = (path: string, method: string) => doc.paths[path][method];
    for (const [path, method] of [
      ['/team_members', 'post'],
      ['/team_members/{id}', 'delete'],
      ['/workspace_permissions_batch', 'post'],
      ['/teams/{id}', 'delete'],
      ['/users/{id}', 'put'],
      ['/oauth_clients', 'post'],
      ['/credentials', 'get'],
    ]) {
      expect(op(path, method).description).toMatch(
        /Refused \(403\) to tokens granted to third-party/,
      );
      expect(op(path, method).responses['403']).toBeDefined();
      expect(op(path, method)['x-delegated']).toBe(false);
    }
    for (const [path, method] of [
      ['/shipments', 'post'],
      ['/users/{id}', 'get'],
      ['/team_members', 'get'],
    ]) {
      expect(op(path, method).description).not.toMatch(/third-party/);
      expect(op(path, method)['x-delegated']).toBe(true);
    }
  });
});
