import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { extract, startTestSmtp, type TestSmtp } from '../support/smtp';

const CODE = /Invitation code: ([\w-]+)/;

/**
 * Issue 11 item 11: inviting an existing account no longer makes it a member at once, and the
 * answer is the same as for an unknown address (nothing about the account is revealed).
 */
describe('security: invitations', () => {
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
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
    await smtp.close();
  });

  const shape = (body: Record<string, unknown>) => {
    const { '@id': _i, id: _id, invitedEmail: _e, team, createdAt, invitedAt, ...rest } = body;
    // The embedded team is the inviter's own; its seat counts move with every invitation.
    const { entitlements: _seats, ...teamRest } = (team ?? {}) as Record<string, unknown>;
    // Two invitations a moment apart may fall on either side of a second: times are kept
    // only as present or not.
    return {
      ...rest,
      team: teamRest,
      createdAt: Boolean(createdAt),
      invitedAt: Boolean(invitedAt),
    };
  };

  it('answers the same for an existing account and an unknown address, adding nobody', async () => {
    const owner = await createTenant(app);
    const existing = await createTenant(app);
    await app
      .get(DataSource)
      .query(
        `UPDATE "user" SET first_name = 'Secret', last_name = 'Person', last_logged_in_at = now() WHERE id = $1`,
        [existing.userId],
      );
    const invite = (email: string) =>
      api(app, { token: owner.token })
        .post('/team_members', { team: `/teams/${owner.teamId}`, invitedEmail: email })
        .expect(201);
    const known = (await invite(existing.email)).body;
    const unknown = (await invite(`nobody-${randomUUID()}@example.test`)).body;
    expect(shape(known)).toEqual(shape(unknown));
    expect(known.member).toBeNull();
    expect(known.memberName ?? null).toBeNull();
    expect(known.memberLastLoggedIn ?? null).toBeNull();
    expect(JSON.stringify(known)).not.toContain('Secret');

    // Not a member until it accepts.
    const teams = await api(app, { token: existing.token }).get('/teams').expect(200);
    expect(teams.body['hydra:member'].map((t: { id: string }) => t.id)).not.toContain(owner.teamId);
    const [{ n }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM team_member WHERE team_id = $1 AND member_id = $2`, [
        owner.teamId,
        existing.userId,
      ]);
    expect(n).toBe(0);

    const code = extract(await smtp.waitFor(existing.email, /Invitation/), CODE);
    await api(app)
      .post('/security/signup', { email: existing.email, invitationCode: code })
      .expect(200);
    const after = await api(app, { token: existing.token }).get('/teams').expect(200);
    expect(after.body['hydra:member'].map((t: { id: string }) => t.id)).toContain(owner.teamId);
  });

  it('a password reset does not accept pending invitations', async () => {
    const owner = await createTenant(app);
    const existing = await createTenant(app);
    await api(app, { token: owner.token })
      .post('/team_members', { team: `/teams/${owner.teamId}`, invitedEmail: existing.email })
      .expect(201);
    await api(app)
      .post('/security/forgot-password/send-email', { email: existing.email })
      .expect(201);
    const code = extract(await smtp.waitFor(existing.email, /Reset/), /code: ([\w-]+)/);
    await api(app)
      .post('/security/forgot-password/reset', { code, newPassword: 'a brand new password' })
      .expect(200);
    const [{ n }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM team_member WHERE team_id = $1 AND member_id = $2`, [
        owner.teamId,
        existing.userId,
      ]);
    expect(n).toBe(0);
  });
});
