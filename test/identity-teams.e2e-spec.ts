import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { extract, startTestSmtp, type TestSmtp } from './support/smtp';
import { addWorkspace, createTenant } from './factories/tenant.factory';
import { joinTeam, setPassword } from './factories/identity.factory';

const CODE = /Invitation code: ([\w-]+)/;
const ids = (body: { 'hydra:member': Array<{ id: string }> }) =>
  body['hydra:member'].map((m) => m.id);

describe('teams, team members, invitations and workspace access', () => {
  let app: NestExpressApplication;
  let smtp: TestSmtp;
  const saved = { ...process.env };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    process.env.SMTP_URL = smtp.url;
    app = await createTestApp();
  });
  afterAll(async () => {
    process.env = saved;
    await closeTestApp(app);
    await smtp.close();
  });

  const as = (token: string) => api(app, { token });

  describe('reading', () => {
    it('lists the members of the caller’s teams with the reference fields', async () => {
      const owner = await createTenant(app);
      const admin = await joinTeam(app, owner, 'admin');
      const stranger = await createTenant(app);

      const res = await as(owner.token).get('/team_members').expect(200);
      expect(res.body['hydra:totalItems']).toBe(2);
      const mine = res.body['hydra:member'].find(
        (m: { member: string }) => m.member === `/users/${owner.userId}`,
      );
      expect(mine).toMatchObject({
        '@type': 'TeamMember',
        team: { '@id': `/teams/${owner.teamId}`, name: expect.any(String) },
        teamAdmin: true,
        teamOwner: true,
        memberEmail: owner.email,
        teamId: owner.teamId,
        invitedEmail: null,
      });
      const adminRow = res.body['hydra:member'].find(
        (m: { member: string }) => m.member === `/users/${admin.userId}`,
      );
      expect(adminRow).toMatchObject({ teamAdmin: true, teamOwner: false });
      expect(ids(res.body)).not.toContain(stranger.userId);

      const nested = await as(owner.token).get(`/teams/${owner.teamId}/team_members`).expect(200);
      expect(nested.body['hydra:totalItems']).toBe(2);
      const filtered = await as(owner.token)
        .get(`/team_members?member.id=${admin.userId}`)
        .expect(200);
      expect(ids(filtered.body)).toEqual([admin.teamMemberId]);
      const byUser = await as(owner.token).get(`/users/${owner.userId}/team_members`).expect(200);
      expect(byUser.body['hydra:totalItems']).toBe(1);

      await as(owner.token).get(`/teams/${stranger.teamId}/team_members`).expect(404);
      await as(owner.token).get(`/users/${stranger.userId}/team_members`).expect(404);
      const theirs = await as(stranger.token).get('/team_members').expect(200);
      await as(owner.token).get(`/team_members/${theirs.body['hydra:member'][0].id}`).expect(404);
    });

    it('a member sees the team but only the workspaces they belong to; admins see all', async () => {
      const owner = await createTenant(app);
      const second = await addWorkspace(app, owner);
      const member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const admin = await joinTeam(app, owner, 'admin');

      const memberTeams = await as(member.token).get('/teams').expect(200);
      expect(ids(memberTeams.body)).toEqual([owner.teamId]);
      const memberWs = await as(member.token).get('/workspaces').expect(200);
      expect(ids(memberWs.body)).toEqual([owner.workspaceId]);
      await as(member.token).get(`/workspaces/${second}`).expect(404);
      const nested = await as(member.token).get(`/teams/${owner.teamId}/workspaces`).expect(200);
      expect(ids(nested.body)).toEqual([owner.workspaceId]);

      const adminWs = await as(admin.token).get('/workspaces').expect(200);
      expect(ids(adminWs.body).sort()).toEqual([owner.workspaceId, second].sort());
    });
  });

  describe('invitations', () => {
    it('invites a new address: pending member, code by mail, team name look-up, sign-up joins', async () => {
      const owner = await createTenant(app);
      const second = await addWorkspace(app, owner);
      const email = `invitee-${randomUUID()}@example.test`;
      const res = await as(owner.token)
        .post('/team_members', {
          team: `/teams/${owner.teamId}`,
          invitedEmail: email,
          permissions: [{ workspaceId: second, accessLevel: 'read' }],
        })
        .expect(201);
      expect(res.body).toMatchObject({
        '@type': 'TeamMember',
        member: null,
        invitedEmail: email,
        teamAdmin: false,
        teamOwner: false,
        invitedAt: expect.any(String),
      });
      const mail = await smtp.waitFor(email, /Invitation to join the team/);
      const code = extract(mail, CODE);

      const lookup = await api(app).post('/security/lookup-team-name', { email, code }).expect(200);
      const team = await as(owner.token).get(`/teams/${owner.teamId}`).expect(200);
      expect(lookup.body).toEqual({ email, code, teamName: team.body.name });
      await api(app)
        .post('/security/lookup-team-name', { email: 'other@example.test', code })
        .expect(422);
      await api(app).post('/security/lookup-team-name', { email, code: 'wrong' }).expect(422);

      const signup = await api(app)
        .post('/security/signup', {
          email,
          password: 'invited password',
          invitationCode: code,
        })
        .expect(200);
      expect(signup.body.user).toMatchObject({ email, emailVerified: true, passwordSet: true });
      expect(signup.body.user.teams).toEqual([`/teams/${owner.teamId}`]);
      const token = signup.body.token.access_token;
      const ws = await as(token).get('/workspaces').expect(200);
      expect(ids(ws.body)).toEqual([second]);
      const access = await as(token).get('/workspace_members').expect(200);
      expect(access.body['hydra:member'][0]).toMatchObject({
        accessLevel: 'read',
        workspaceId: second,
        memberEmail: email,
      });
      const member = await as(owner.token).get(`/team_members/${res.body.id}`).expect(200);
      expect(member.body).toMatchObject({ member: signup.body.user['@id'], memberEmail: email });

      // The code is spent.
      await api(app).post('/security/lookup-team-name', { email, code }).expect(422);
    });

    it('verifying the invited address by a normal sign-up accepts the invitation too', async () => {
      const owner = await createTenant(app);
      const email = `invitee-${randomUUID()}@example.test`;
      await as(owner.token)
        .post('/team_members', {
          team: `/teams/${owner.teamId}`,
          invitedEmail: email,
          teamAdmin: true,
        })
        .expect(201);
      await smtp.waitFor(email, /Invitation/);
      await api(app).post('/security/signup', { email }).expect(200);
      const verify = extract(await smtp.waitFor(email, /Verify/), /code: ([\w-]+)/);
      const res = await api(app).post('/security/verify-email', { code: verify }).expect(201);
      const token = res.body.token.access_token;
      const ws = await as(token).get('/workspaces').expect(200);
      // Invited as admin: sees every workspace of the team.
      expect(ids(ws.body)).toEqual([owner.workspaceId]);
    });

    it('invites an existing account like any address: pending until it accepts with the code', async () => {
      const owner = await createTenant(app);
      const existing = await createTenant(app);
      const res = await as(owner.token)
        .post('/team_members', {
          team: `/teams/${owner.teamId}`,
          invitedEmail: existing.email.toUpperCase(),
          permissions: [{ workspaceId: `/workspaces/${owner.workspaceId}`, accessLevel: 'full' }],
        })
        .expect(201);
      expect(res.body).toMatchObject({ member: null, teamAdmin: false });
      expect(ids((await as(existing.token).get('/workspaces').expect(200)).body)).toEqual([
        existing.workspaceId,
      ]);
      const code = extract(await smtp.waitFor(existing.email, /Invitation/), CODE);
      await api(app)
        .post('/security/signup', { email: existing.email, invitationCode: code })
        .expect(200);
      const ws = await as(existing.token).get('/workspaces').expect(200);
      expect(ids(ws.body).sort()).toEqual([existing.workspaceId, owner.workspaceId].sort());
      const again = await as(owner.token)
        .post('/team_members', { team: `/teams/${owner.teamId}`, invitedEmail: existing.email })
        .expect(422);
      expect(again.body.violations[0].propertyPath).toBe('invitedEmail');
    });

    it('resend_invite mails a new code (the old one stops working); only for pending ones', async () => {
      const owner = await createTenant(app);
      const email = `invitee-${randomUUID()}@example.test`;
      const invited = await as(owner.token)
        .post('/team_members', { team: `/teams/${owner.teamId}`, invitedEmail: email })
        .expect(201);
      const first = extract(await smtp.waitFor(email, /Invitation/), CODE);
      await as(owner.token).post(`/team_members/${invited.body.id}/resend_invite`, {}).expect(201);
      const second = extract(await smtp.waitFor(email, /Invitation/), CODE);
      expect(second).not.toBe(first);
      await api(app).post('/security/lookup-team-name', { email, code: first }).expect(422);
      await api(app).post('/security/lookup-team-name', { email, code: second }).expect(200);

      const memberRow = await as(owner.token)
        .get(`/team_members?member.id=${owner.userId}`)
        .expect(200);
      const accepted = memberRow.body['hydra:member'][0].id;
      await as(owner.token).post(`/team_members/${accepted}/resend_invite`, {}).expect(422);
      const stranger = await createTenant(app);
      await as(stranger.token)
        .post(`/team_members/${invited.body.id}/resend_invite`, {})
        .expect(404);
    });

    it('invitations expire after 14 days', async () => {
      const owner = await createTenant(app);
      const email = `invitee-${randomUUID()}@example.test`;
      await as(owner.token)
        .post('/team_members', { team: `/teams/${owner.teamId}`, invitedEmail: email })
        .expect(201);
      const code = extract(await smtp.waitFor(email, /Invitation/), CODE);
      await app
        .get(DataSource)
        .query(
          `UPDATE team_member SET invited_at = now() - interval '15 days' WHERE invited_email = $1`,
          [email],
        );
      await api(app).post('/security/lookup-team-name', { email, code }).expect(422);
      const res = await api(app)
        .post('/security/signup', { email, invitationCode: code })
        .expect(422);
      expect(res.body.violations[0].propertyPath).toBe('invitationCode');
    });

    it('validates invitations and allows them to owners and admins only', async () => {
      const owner = await createTenant(app);
      const member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const admin = await joinTeam(app, owner, 'admin');
      const stranger = await createTenant(app);
      const team = `/teams/${owner.teamId}`;
      await as(member.token)
        .post('/team_members', { team, invitedEmail: 'x@example.test' })
        .expect(403);
      await as(admin.token)
        .post('/team_members', { team, invitedEmail: `a-${randomUUID()}@example.test` })
        .expect(201);
      await as(stranger.token)
        .post('/team_members', { team, invitedEmail: 'x@example.test' })
        .expect(422);
      await as(owner.token).post('/team_members', { team, invitedEmail: 'nope' }).expect(422);
      await as(owner.token).post('/team_members', { team }).expect(422);
      await as(owner.token)
        .post('/team_members', { team, invitedEmail: 'x@example.test', teamAdmin: 'yes' })
        .expect(400);
      const foreignWs = await as(owner.token)
        .post('/team_members', {
          team,
          invitedEmail: 'x@example.test',
          permissions: [{ workspaceId: stranger.workspaceId, accessLevel: 'full' }],
        })
        .expect(422);
      expect(foreignWs.body.violations[0].propertyPath).toBe('permissions[0].workspaceId');
      await as(owner.token)
        .post('/team_members', {
          team,
          invitedEmail: 'x@example.test',
          permissions: [{ workspaceId: owner.workspaceId, accessLevel: 'god' }],
        })
        .expect(422);
      const [{ n }] = await app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM team_member WHERE invited_email = 'x@example.test'`);
      expect(n).toBe(0);
    });
  });

  describe('roles and removal', () => {
    it('owners and admins change roles; an owner’s role does not change', async () => {
      const owner = await createTenant(app);
      const member = await joinTeam(app, owner, 'member');
      const admin = await joinTeam(app, owner, 'admin');
      const promoted = await as(admin.token)
        .put(`/team_members/${member.teamMemberId}`, { teamAdmin: true })
        .expect(200);
      expect(promoted.body).toMatchObject({ teamAdmin: true, teamOwner: false });
      // The promoted member now sees every workspace.
      const ws = await as(member.token).get('/workspaces').expect(200);
      expect(ids(ws.body)).toEqual([owner.workspaceId]);
      await as(owner.token)
        .put(`/team_members/${member.teamMemberId}`, { teamAdmin: false })
        .expect(200);
      await as(member.token)
        .put(`/team_members/${admin.teamMemberId}`, { teamAdmin: false })
        .expect(403);
      const ownerRow = (
        await as(owner.token).get(`/team_members?member.id=${owner.userId}`).expect(200)
      ).body['hydra:member'][0];
      const demote = await as(admin.token)
        .put(`/team_members/${ownerRow.id}`, { teamAdmin: false })
        .expect(422);
      expect(demote.body.violations[0].propertyPath).toBe('teamAdmin');
      await as(admin.token)
        .put(`/team_members/${member.teamMemberId}`, { teamAdmin: 'no' })
        .expect(400);
      const stranger = await createTenant(app);
      await as(stranger.token)
        .put(`/team_members/${member.teamMemberId}`, { teamAdmin: true })
        .expect(404);
    });

    it('an owner cannot be removed; the last owner cannot leave; members may leave', async () => {
      const owner = await createTenant(app);
      const admin = await joinTeam(app, owner, 'admin');
      const member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const other = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const ownerRow = (
        await as(owner.token).get(`/team_members?member.id=${owner.userId}`).expect(200)
      ).body['hydra:member'][0];

      await as(admin.token).delete(`/team_members/${ownerRow.id}`).expect(403);
      const last = await as(owner.token).delete(`/team_members/${ownerRow.id}`).expect(422);
      expect(last.body.violations[0].message).toMatch(/last owner/);
      await as(member.token).delete(`/team_members/${other.teamMemberId}`).expect(403);

      // A member leaves: their workspace access goes with the membership.
      await as(member.token).delete(`/team_members/${member.teamMemberId}`).expect(204);
      await as(member.token)
        .get('/workspaces')
        .expect(200)
        .expect((r) => {
          expect(r.body['hydra:totalItems']).toBe(0);
        });
      const [{ n }] = await app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM workspace_member WHERE user_id = $1`, [
          member.userId,
        ]);
      expect(n).toBe(0);

      // An admin removes a member.
      await as(admin.token).delete(`/team_members/${other.teamMemberId}`).expect(204);
      await as(admin.token).get(`/team_members/${other.teamMemberId}`).expect(404);

      // With a second owner, an owner may leave.
      const coOwner = await joinTeam(app, owner, 'owner');
      await as(owner.token).delete(`/team_members/${ownerRow.id}`).expect(204);
      await as(owner.token).get(`/teams/${owner.teamId}`).expect(404);
      await as(coOwner.token).get(`/teams/${owner.teamId}`).expect(200);
    });

    it('only an owner deletes the team', async () => {
      const owner = await createTenant(app);
      const admin = await joinTeam(app, owner, 'admin');
      await as(admin.token).delete(`/teams/${owner.teamId}`).expect(403);
      await as(owner.token).delete(`/teams/${owner.teamId}`).expect(204);
    });
  });

  describe('workspace members', () => {
    it('lists, changes and removes workspace access; admins only change others', async () => {
      const owner = await createTenant(app);
      const member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const list = await as(owner.token).get('/workspace_members').expect(200);
      expect(list.body['hydra:totalItems']).toBe(1);
      const row = list.body['hydra:member'][0];
      expect(row).toMatchObject({
        '@type': 'WorkspaceMember',
        workspace: { '@id': `/workspaces/${owner.workspaceId}`, title: 'Main store' },
        accessLevel: 'full',
        workspaceId: owner.workspaceId,
        teamAdmin: false,
        memberEmail: member.email,
      });
      const nested = await as(owner.token)
        .get(`/workspaces/${owner.workspaceId}/workspace_members`)
        .expect(200);
      expect(ids(nested.body)).toEqual([row.id]);

      const changed = await as(owner.token)
        .put(`/workspace_members/${row.id}`, { accessLevel: 'read' })
        .expect(200);
      expect(changed.body.accessLevel).toBe('read');
      await as(owner.token)
        .put(`/workspace_members/${row.id}`, { accessLevel: 'root' })
        .expect(422);
      await as(member.token)
        .put(`/workspace_members/${row.id}`, { accessLevel: 'full' })
        .expect(403);
      const stranger = await createTenant(app);
      await as(stranger.token).get(`/workspace_members/${row.id}`).expect(404);
      await as(stranger.token).delete(`/workspace_members/${row.id}`).expect(404);

      await as(owner.token).delete(`/workspace_members/${row.id}`).expect(204);
      await as(member.token).get(`/workspaces/${owner.workspaceId}`).expect(404);
    });

    it('a member may drop their own access', async () => {
      const owner = await createTenant(app);
      const member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const mine = await as(member.token).get('/workspace_members').expect(200);
      await as(member.token)
        .delete(`/workspace_members/${mine.body['hydra:member'][0].id}`)
        .expect(204);
    });
  });

  describe('POST /workspace_permissions_batch', () => {
    it('grants and revokes access of team members in bulk', async () => {
      const owner = await createTenant(app);
      const second = await addWorkspace(app, owner);
      const a = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const b = await joinTeam(app, owner, 'member');
      const res = await as(owner.token)
        .post('/workspace_permissions_batch', {
          changes: [
            {
              email: a.email,
              permissions: [
                { workspaceId: owner.workspaceId, accessLevel: null },
                { workspaceId: second, accessLevel: 'read' },
              ],
            },
            {
              email: b.email,
              permissions: [{ workspaceId: `/workspaces/${second}`, accessLevel: 'full' }],
            },
          ],
        })
        .expect(201);
      expect(res.body).toMatchObject({
        inviteMode: false,
        changes: [
          { email: a.email, result: 'updated' },
          { email: b.email, result: 'updated' },
        ],
      });
      expect(ids((await as(a.token).get('/workspaces').expect(200)).body)).toEqual([second]);
      expect(ids((await as(b.token).get('/workspaces').expect(200)).body)).toEqual([second]);
      const levels = await as(owner.token)
        .get(`/workspaces/${second}/workspace_members`)
        .expect(200);
      expect(
        levels.body['hydra:member']
          .map(
            (m: { memberEmail: string; accessLevel: string }) =>
              `${m.memberEmail}:${m.accessLevel}`,
          )
          .sort(),
      ).toEqual([`${a.email}:read`, `${b.email}:full`].sort());
    });

    it('invites unknown addresses only in inviteMode; all or nothing', async () => {
      const owner = await createTenant(app);
      const a = await joinTeam(app, owner, 'member');
      const email = `batch-${randomUUID()}@example.test`;
      const body = (inviteMode: boolean) => ({
        inviteMode,
        changes: [
          {
            email: a.email,
            permissions: [{ workspaceId: owner.workspaceId, accessLevel: 'full' }],
          },
          { email, permissions: [{ workspaceId: owner.workspaceId, accessLevel: 'read' }] },
        ],
      });
      const refused = await as(owner.token)
        .post('/workspace_permissions_batch', body(false))
        .expect(422);
      expect(refused.body.violations[0].propertyPath).toBe('changes[1].email');
      // Nothing applied.
      expect((await as(a.token).get('/workspaces').expect(200)).body['hydra:totalItems']).toBe(0);

      const invited = await as(owner.token)
        .post('/workspace_permissions_batch', body(true))
        .expect(201);
      expect(invited.body.changes.map((c: { result: string }) => c.result)).toEqual([
        'updated',
        'invited',
      ]);
      const code = extract(await smtp.waitFor(email, /Invitation/), CODE);
      const signup = await api(app)
        .post('/security/signup', { email, invitationCode: code })
        .expect(200);
      const ws = await as(signup.body.token.access_token)
        .get(`/workspace_members?user.id=${signup.body.user.id}`)
        .expect(200);
      expect(ws.body['hydra:totalItems']).toBe(1);
      expect(ws.body['hydra:member'][0]).toMatchObject({
        workspaceId: owner.workspaceId,
        accessLevel: 'read',
      });
      expect(signup.body.user.passwordSet).toBe(false);
      await setPassword(app, signup.body.user.id, 'set later 123');
    });

    it('refuses foreign workspaces, non-admins and malformed bodies', async () => {
      const owner = await createTenant(app);
      const member = await joinTeam(app, owner, 'member', [owner.workspaceId]);
      const stranger = await createTenant(app);
      const change = (workspaceId: string, email = member.email) => ({
        changes: [{ email, permissions: [{ workspaceId, accessLevel: 'full' }] }],
      });
      const foreign = await as(owner.token)
        .post('/workspace_permissions_batch', change(stranger.workspaceId, stranger.email))
        .expect(422);
      expect(foreign.body.violations[0].propertyPath).toBe('changes[0].permissions[0].workspaceId');
      await as(member.token)
        .post('/workspace_permissions_batch', change(owner.workspaceId))
        .expect(422);
      await as(owner.token).post('/workspace_permissions_batch', { changes: 'all' }).expect(400);
      await as(owner.token)
        .post('/workspace_permissions_batch', { changes: [{ email: 'bad', permissions: [] }] })
        .expect(422);
      await as(owner.token)
        .post('/workspace_permissions_batch', {
          changes: [
            { email: member.email, permissions: [{ workspaceId: 'x', accessLevel: 'full' }] },
          ],
        })
        .expect(422);
      await api(app).post('/workspace_permissions_batch', change(owner.workspaceId)).expect(401);
    });
  });
});
