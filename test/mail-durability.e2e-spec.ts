import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CredentialsCipher } from '../src/credentials/credentials-cipher';
import { MAIL_QUEUE, openMail } from '../src/mail/mail-job';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { extract, startTestSmtp, type TestSmtp } from './support/smtp';

const CODE = /code: ([\w-]+)/;
const VERIFY = /Verify your e-mail address/;
const newEmail = () => `durable-${randomUUID()}@example.test`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface MailJobRow {
  id: string;
  state: string;
  retry_count: number;
  data: unknown;
  row: string;
}

/** Mail jobs are sealed: a test finds its own by opening them. */
async function jobsTo(app: NestExpressApplication, email: string): Promise<MailJobRow[]> {
  const cipher = app.get(CredentialsCipher);
  const rows: MailJobRow[] = await app.get(DataSource).query(
    `SELECT id, state::text AS state, retry_count, data, row_to_json(j)::text AS row
         FROM pgboss.job j WHERE name = $1 ORDER BY created_on`,
    [MAIL_QUEUE],
  );
  return rows.filter((r) => openMail(cipher, r.data).to === email);
}

async function until<T>(
  what: string,
  probe: () => Promise<T | false | null | undefined>,
  timeoutMs = 15000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('account mail is durable: a sealed pg-boss job backs every immediate send', () => {
  let app: NestExpressApplication;
  let smtp: TestSmtp;
  const saved = { ...process.env };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    process.env.SMTP_URL = smtp.url;
    process.env.PUBLIC_URL = 'https://api.example.test';
    process.env.MAIL_RETRY_DELAY_SECONDS = '1';
    process.env.MAIL_MAX_ATTEMPTS = '3';
    app = await createTestApp();
  });
  afterEach(() => {
    smtp.greetingDelayMs = 0;
  });
  afterAll(async () => {
    process.env = saved;
    await closeTestApp(app);
    await smtp.close();
  });

  const signup = (email: string) => api(app).post('/security/signup', { email }).expect(200);
  const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

  /** Past the job's start (1 s), a worker poll (1 s) and a first retry (at most 2 s). */
  const longEnoughForAnotherSend = () => sleep(4000);

  it('sends a sign-up mail once and leaves no job behind', async () => {
    const email = newEmail();
    await signup(email);
    await smtp.waitFor(email, VERIFY);
    await until('the job to be deleted', async () => (await jobsTo(app, email)).length === 0);
    await longEnoughForAnotherSend();
    expect(mailsTo(email)).toEqual([]);
    expect(await jobsTo(app, email)).toEqual([]);
  });

  it('a refused first attempt is sent by the job after the delay, exactly once', async () => {
    const email = newEmail();
    smtp.refuse(email, 1);
    const started = Date.now();
    await signup(email);
    const mail = await smtp.waitFor(email, VERIFY);
    expect(mail.receivedAt - started).toBeGreaterThanOrEqual(1000);
    const [job] = await until('the job to complete', async () => {
      const rows = await jobsTo(app, email);
      return rows.length === 1 && rows[0].state === 'completed' && rows;
    });
    expect(job.retry_count).toBe(0);
    await longEnoughForAnotherSend();
    expect(mailsTo(email)).toEqual([]);
    // The code the job delivered works.
    await api(app)
      .post('/security/verify-email', { code: extract(mail, CODE) })
      .expect(201);
  });

  it('retries a failing job with backoff until the mail goes through', async () => {
    const email = newEmail();
    smtp.refuse(email, 2); // the immediate attempt and the job's first run
    await signup(email);
    await smtp.waitFor(email, VERIFY);
    const [job] = await until('the job to complete', async () => {
      const rows = await jobsTo(app, email);
      return rows.length === 1 && rows[0].state === 'completed' && rows;
    });
    expect(job.retry_count).toBe(1);
    await longEnoughForAnotherSend();
    expect(mailsTo(email)).toEqual([]);
  });

  it('gives up after MAIL_MAX_ATTEMPTS and logs an error naming the job, not the code', async () => {
    const email = newEmail();
    const errors: string[] = [];
    const spy = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation((message: unknown) => void errors.push(String(message)));
    try {
      smtp.refuse(email, 3);
      await signup(email);
      const [job] = await until('the job to fail', async () => {
        const rows = await jobsTo(app, email);
        return rows.length === 1 && rows[0].state === 'failed' && rows;
      });
      expect(job.retry_count).toBe(1);
      const code = CODE.exec(openMail(app.get(CredentialsCipher), job.data).text)![1];
      const line = errors.find((e) => e.includes(job.id)) ?? '';
      expect(line).toMatch(
        /^Mail job \S+ \("Verify your e-mail address"\) failed \(attempt 3\), given up/,
      );
      expect(errors.join('\n')).not.toContain(code);
      expect(errors.join('\n')).not.toContain(email);
    } finally {
      spy.mockRestore();
    }
    expect(mailsTo(email)).toEqual([]);
  });

  it('stores the job sealed: no code, link or address in clear', async () => {
    const email = newEmail();
    smtp.refuse(email, 1);
    await signup(email);
    const [stored] = await until('the job to wait for its run', async () => {
      const rows = await jobsTo(app, email);
      return rows.length === 1 && rows[0].state === 'created' && rows;
    });
    const mail = await smtp.waitFor(email, VERIFY);
    const code = extract(mail, CODE);
    expect(mail.text).toContain(`https://api.example.test/security/verify-email?code=${code}`);
    expect(Object.keys(stored.data as object)).toEqual(['sealed']);
    for (const clear of [code, email, 'verify-email', 'Verify']) {
      expect(stored.row).not.toContain(clear);
    }
    // What the worker opened is what arrived.
    expect(openMail(app.get(CredentialsCipher), stored.data).text).toContain(code);
  });

  it('answers before the SMTP server has the message, however slow it is', async () => {
    const email = newEmail();
    smtp.greetingDelayMs = 2000;
    await signup(email);
    const answeredAt = Date.now();
    expect(mailsTo(email)).toEqual([]);
    const mail = await smtp.waitFor(email, VERIFY);
    expect(mail.receivedAt).toBeGreaterThan(answeredAt);
    // The job came due (1 s) while the slow attempt was in flight: it waited, no second mail.
    await until('the job to be deleted', async () => (await jobsTo(app, email)).length === 0);
    await longEnoughForAnotherSend();
    expect(mailsTo(email)).toEqual([]);
  });

  it('shutdown waits for an attempt in flight and deletes its job', async () => {
    process.env.MAIL_RETRY_DELAY_SECONDS = '60'; // nothing but the closing node sends it
    const other = await createTestApp();
    process.env.MAIL_RETRY_DELAY_SECONDS = '1';
    const email = newEmail();
    smtp.greetingDelayMs = 1000;
    await api(other).post('/security/signup', { email }).expect(200);
    await until('the job to be recorded', async () => (await jobsTo(app, email)).length === 1);
    await closeTestApp(other);
    expect(mailsTo(email)).toHaveLength(1);
    expect(await jobsTo(app, email)).toEqual([]);
  });
});
