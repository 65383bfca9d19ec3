import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PasswordLogin } from '../src/auth/password-login';
import { LogMailer } from '../src/mail/log-mailer';
import { MAILER } from '../src/mail/mailer';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { extract, startTestSmtp, type TestSmtp } from './support/smtp';
import { createTenant } from './factories/tenant.factory';
import { travel } from './factories/identity.factory';

const CODE = /code: ([\w-]+)/;
const newEmail = () => `new-${randomUUID()}@example.test`;

describe('accounts: sign-up, verification, password reset (mail over real SMTP)', () => {
  let app: NestExpressApplication;
  let smtp: TestSmtp;
  const saved = { ...process.env };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    process.env.SMTP_URL = smtp.url;
    process.env.MAIL_FROM = 'Tracking <accounts@example.test>';
    process.env.PUBLIC_URL = 'https://api.example.test';
    app = await createTestApp();
  });
  afterAll(async () => {
    process.env = saved;
    await closeTestApp(app);
    await smtp.close();
  });

  const http = () => api(app);
  const db = () => app.get(DataSource);

  async function signUpAndVerify(email: string, password?: string) {
    await http().post('/security/signup', { email, password }).expect(200);
    const mail = await smtp.waitFor(email, /Verify/);
    const verified = await http()
      .post('/security/verify-email', { code: extract(mail, CODE) })
      .expect(201);
    return verified.body as { user: Record<string, unknown>; token: Record<string, string> };
  }

  it('signs up, mails a code and link, verifies and answers the user with a token', async () => {
    const email = newEmail();
    const res = await http()
      .post('/security/signup', { email, password: 'correct horse battery' })
      .expect(200);
    expect(res.body).toMatchObject({ user: { email, emailVerified: false }, token: null });
    expect(res.body.user.id).toBeUndefined();
    const [row] = await db().query(
      `SELECT email_verified, password_hash FROM "user" WHERE email = $1`,
      [email],
    );
    expect(row).toEqual({ email_verified: false, password_hash: null });

    const mail = await smtp.waitFor(email, /Verify your e-mail address/);
    expect(mail.from).toBe('accounts@example.test');
    const code = extract(mail, CODE);
    expect(mail.text).toContain(`https://api.example.test/security/verify-email?code=${code}`);

    const verified = await http().post('/security/verify-email', { code }).expect(201);
    expect(verified.body.user).toMatchObject({
      '@type': 'User',
      email,
      emailVerified: true,
      passwordSet: true,
    });
    expect(verified.body.token).toEqual({
      access_token: expect.any(String),
      expires_in: 3600,
      token_type: 'bearer',
      scope: 'user',
      refresh_token: null,
      user_id: verified.body.user.id,
      user_email: email,
    });
    const me = await api(app, { token: verified.body.token.access_token })
      .get(`/users/${verified.body.user.id}`)
      .expect(200);
    expect(me.body.emailVerified).toBe(true);
    expect(me.body.passwordHash).toBeUndefined();

    // Single use.
    const again = await http().post('/security/verify-email', { code }).expect(422);
    expect(again.body.violations[0]).toMatchObject({ propertyPath: 'code' });
    // The chosen password signs in.
    await expect(
      app.get(PasswordLogin).authenticate(email, 'correct horse battery'),
    ).resolves.toMatchObject({ email });
  });

  it('the verification link opens a page that posts the code', async () => {
    const email = newEmail();
    await http().post('/security/signup', { email }).expect(200);
    const code = extract(await smtp.waitFor(email, /Verify/), CODE);
    const page = await request(app.getHttpServer())
      .get('/security/verify-email')
      .query({ code })
      .expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain(`value="${code}"`);
    const [before] = await db().query(`SELECT email_verified FROM "user" WHERE email = $1`, [
      email,
    ]);
    expect(before.email_verified).toBe(false);

    const done = await request(app.getHttpServer())
      .post('/security/verify-email')
      .set('Accept', 'text/html')
      .type('form')
      .send({ code })
      .expect(200);
    expect(done.text).toContain('verified');
    const [after] = await db().query(`SELECT email_verified FROM "user" WHERE email = $1`, [email]);
    expect(after.email_verified).toBe(true);
  });

  it('the verification form answers JSON to API clients; unservable formats are 406 first', async () => {
    const email = newEmail();
    await http().post('/security/signup', { email }).expect(200);
    const code = extract(await smtp.waitFor(email, /Verify/), CODE);
    const post = (accept: string) =>
      request(app.getHttpServer()).post('/security/verify-email').set('Accept', accept);
    await post('application/xml').type('form').send({ code }).expect(406);
    // The page is for the page's form: a JSON body asking for HTML cannot be served.
    await post('text/html').send({ code }).expect(406);
    const [before] = await db().query(`SELECT email_verified FROM "user" WHERE email = $1`, [
      email,
    ]);
    expect(before.email_verified).toBe(false);
    const res = await post('application/json').type('form').send({ code }).expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.user).toMatchObject({ email, emailVerified: true });
    expect(res.body.token.access_token).toEqual(expect.any(String));
  });

  it('answers a known address exactly like a new one, and mails its owner instead', async () => {
    const email = newEmail();
    await signUpAndVerify(email, 'first password');
    const res = await http()
      .post('/security/signup', { email, password: 'attacker password' })
      .expect(200);
    const fresh = await http()
      .post('/security/signup', { email: newEmail(), password: 'attacker password' })
      .expect(200);
    expect(Object.keys(res.body)).toEqual(Object.keys(fresh.body));
    expect(res.body.user).toEqual({ ...fresh.body.user, email });
    await smtp.waitFor(email, /Sign-up attempt/);
    const login = app.get(PasswordLogin);
    await expect(login.authenticate(email, 'attacker password')).resolves.toBeNull();
    await expect(login.authenticate(email, 'first password')).resolves.not.toBeNull();
  });

  it('a password set by someone else’s sign-up is not the one applied by the owner’s code', async () => {
    const email = newEmail();
    await http().post('/security/signup', { email, password: 'attacker password' }).expect(200);
    const attackerMail = await smtp.waitFor(email, /Verify/);
    await http().post('/security/signup', { email, password: 'owner password' }).expect(200);
    const ownerMail = await smtp.waitFor(email, /Verify/);
    expect(extract(ownerMail, CODE)).not.toBe(extract(attackerMail, CODE));
    await http()
      .post('/security/verify-email', { code: extract(ownerMail, CODE) })
      .expect(201);
    const login = app.get(PasswordLogin);
    await expect(login.authenticate(email, 'owner password')).resolves.not.toBeNull();
    await expect(login.authenticate(email, 'attacker password')).resolves.toBeNull();
    // Every other verification code died with the one used.
    await http()
      .post('/security/verify-email', { code: extract(attackerMail, CODE) })
      .expect(422);
  });

  it('a password may be set later with PUT /users/{id} plainPassword', async () => {
    const { user, token } = await signUpAndVerify(newEmail());
    expect(user.passwordSet).toBe(false);
    const me = api(app, { token: token.access_token });
    const short = await me.put(`/users/${user.id}`, { plainPassword: 'short' }).expect(422);
    expect(short.body.violations[0]).toMatchObject({ propertyPath: 'plainPassword' });
    await me.put(`/users/${user.id}`, { plainPassword: 12345678 }).expect(400);
    const res = await me
      .put(`/users/${user.id}`, { plainPassword: 'a long enough password', firstName: 'Ada' })
      .expect(200);
    expect(res.body).toMatchObject({ passwordSet: true, firstName: 'Ada' });
    expect(res.body.plainPassword).toBeUndefined();
    await expect(
      app.get(PasswordLogin).authenticate(String(user.email), 'a long enough password'),
    ).resolves.not.toBeNull();
    // Someone else's user is 404.
    const other = await createTenant(app);
    await me.put(`/users/${other.userId}`, { plainPassword: 'another password' }).expect(404);
    await me.get(`/users/${other.userId}`).expect(404);
  });

  it('verification codes expire after 48 hours (by the clock)', async () => {
    const email = newEmail();
    await http().post('/security/signup', { email }).expect(200);
    const code = extract(await smtp.waitFor(email, /Verify/), CODE);
    const restore = travel(app, 48 * 3600 + 1);
    try {
      await http().post('/security/verify-email', { code }).expect(422);
    } finally {
      restore();
    }
  });

  it('validates sign-up bodies', async () => {
    const bad = await http().post('/security/signup', { email: 'not-an-email' }).expect(422);
    expect(bad.body.violations[0]).toMatchObject({
      propertyPath: 'email',
      message: 'This value is not a valid email address.',
    });
    await http().post('/security/signup', {}).expect(422);
    await http().post('/security/signup', { email: 42 }).expect(400);
    const weak = await http()
      .post('/security/signup', { email: newEmail(), password: 'short' })
      .expect(422);
    expect(weak.body.violations[0].propertyPath).toBe('password');
    await request(app.getHttpServer())
      .post('/security/signup')
      .set('Content-Type', 'text/plain')
      .send('email=x')
      .expect(415);
    await http().post('/security/verify-email', {}).expect(422);
    await http().post('/security/verify-email', { code: 'nope' }).expect(422);
  });

  it('resend-email answers the same for every address and mails only pending ones', async () => {
    const pending = newEmail();
    await http().post('/security/signup', { email: pending, password: 'pending password' });
    await smtp.waitFor(pending, /Verify/);
    const unknown = newEmail();
    const verified = newEmail();
    await signUpAndVerify(verified);

    for (const email of [pending, unknown, verified]) {
      const res = await http().post('/security/resend-email', { email }).expect(201);
      expect(res.body).toEqual({ email });
    }
    const resent = await smtp.waitFor(pending, /Verify/);
    // Mail is sent in order: once a later mail arrived, none went to the other two.
    const marker = newEmail();
    await http().post('/security/signup', { email: marker }).expect(200);
    await smtp.waitFor(marker, /Verify/);
    expect(smtp.messages.filter((m) => m.to.includes(unknown) || m.to.includes(verified))).toEqual(
      [],
    );
    // The resent code keeps the password chosen at sign-up.
    await http()
      .post('/security/verify-email', { code: extract(resent, CODE) })
      .expect(201);
    await expect(
      app.get(PasswordLogin).authenticate(pending, 'pending password'),
    ).resolves.not.toBeNull();
  });

  it('resets a forgotten password with a single-use, expiring code and revokes old tokens', async () => {
    const email = newEmail();
    const { token } = await signUpAndVerify(email, 'old password 1');
    const unknown = await http()
      .post('/security/forgot-password/send-email', { email: newEmail() })
      .expect(201);
    const known = await http().post('/security/forgot-password/send-email', { email }).expect(201);
    expect(Object.keys(known.body)).toEqual(Object.keys(unknown.body));
    const code = extract(await smtp.waitFor(email, /Reset your password/), CODE);

    const weak = await http()
      .post('/security/forgot-password/reset', { code, newPassword: 'short' })
      .expect(422);
    expect(weak.body.violations[0].propertyPath).toBe('newPassword');
    const res = await http()
      .post('/security/forgot-password/reset', { code, newPassword: 'new password 2' })
      .expect(200);
    expect(res.body).toMatchObject({ '@type': 'User', email, passwordSet: true });

    await http()
      .post('/security/forgot-password/reset', { code, newPassword: 'new password 3' })
      .expect(422);
    await api(app, { token: token.access_token }).get('/workspaces').expect(401);
    const login = app.get(PasswordLogin);
    await expect(login.authenticate(email, 'new password 2')).resolves.not.toBeNull();
    await expect(login.authenticate(email, 'old password 1')).resolves.toBeNull();

    await http().post('/security/forgot-password/send-email', { email }).expect(201);
    const late = extract(await smtp.waitFor(email, /Reset your password/), CODE);
    const restore = travel(app, 3601);
    try {
      await http()
        .post('/security/forgot-password/reset', { code: late, newPassword: 'new password 4' })
        .expect(422);
    } finally {
      restore();
    }
  });
});

describe('accounts without SMTP_URL', () => {
  let app: NestExpressApplication;
  const saved = { ...process.env };

  beforeAll(async () => {
    delete process.env.SMTP_URL;
    app = await createTestApp();
  });
  afterAll(async () => {
    process.env = saved;
    await closeTestApp(app);
  });

  it('writes each mail to the log', async () => {
    expect(app.get(MAILER)).toBeInstanceOf(LogMailer);
    const logged: string[] = [];
    const spy = jest
      .spyOn(Logger.prototype, 'log')
      .mockImplementation((message: unknown) => void logged.push(String(message)));
    const email = newEmail();
    try {
      await api(app).post('/security/signup', { email }).expect(200);
      for (let i = 0; i < 50 && !logged.some((l) => l.includes(email)); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      spy.mockRestore();
    }
    const line = logged.find((l) => l.includes(email)) ?? '';
    expect(line).toContain('Verify your e-mail address');
    expect(line).toMatch(/Verification code: [\w-]{43}/);
  });
});
