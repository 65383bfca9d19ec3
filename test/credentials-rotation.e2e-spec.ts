import type { NestExpressApplication } from '@nestjs/platform-express';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import { CredentialsCipher } from '../src/credentials/credentials-cipher';
import { rotateCredentialsKey } from '../src/credentials/credentials-key-rotation';
import { JobQueue } from '../src/jobs/job-queue';
import { MAIL_QUEUE, openMail, sealMail } from '../src/mail/mail-job';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const OLD_KEY = 'a'.repeat(64);
const NEW_KEY = 'b'.repeat(64);

/** Key rotation of sealed credential secrets (CREDENTIALS_ENCRYPTION_KEY[_PREVIOUS]). */
describe('credentials key rotation', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  const saved = process.env.CREDENTIALS_ENCRYPTION_KEY;

  beforeAll(async () => {
    process.env.CREDENTIALS_ENCRYPTION_KEY = OLD_KEY;
    app = await createTestApp();
    db = app.get(DataSource);
    tenant = await createTenant(app);
  });
  afterAll(async () => {
    process.env.CREDENTIALS_ENCRYPTION_KEY = saved;
    await closeTestApp(app);
  });

  const cipher = (key: string, previous?: string[]) =>
    new CredentialsCipher({
      ...app.get(AppConfig),
      credentialsEncryptionKey: key,
      credentialsEncryptionKeyPrevious: previous,
    } as AppConfig);

  async function createCredentials(secret: string): Promise<string> {
    const res = await api(app, { token: tenant.token })
      .post('/credentials', {
        type: 'webhook',
        team: `/teams/${tenant.teamId}`,
        parameters: { url: 'https://hooks.example.com/x' },
        secrets: { signingSecret: secret },
      })
      .expect(201);
    return res.body.id;
  }

  const sealedOf = async (ids: string[]) =>
    (
      await db.query(
        'SELECT id, secrets_ciphertext FROM credentials WHERE id = ANY($1) ORDER BY id',
        [ids],
      )
    ).map((r: { secrets_ciphertext: string }) => r.secrets_ciphertext) as string[];

  it('re-seals every secret with the new key, in batches, idempotently, reporting unreadable ones', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createCredentials(`whsec_rotation_secret_${i}`));
    const oldCipher = cipher(OLD_KEY);
    const rotating = cipher(NEW_KEY, [OLD_KEY]);
    const before = await sealedOf(ids);
    expect(before.every((s) => s.startsWith(`v2:${oldCipher.keyId}:`))).toBe(true);

    // A dry run counts and changes nothing.
    const dry = await rotateCredentialsKey(db, rotating, { dryRun: true, batch: 2 });
    expect(dry.resealed).toBeGreaterThanOrEqual(5);
    expect(await sealedOf(ids)).toEqual(before);

    // One row no configured key opens: reported, skipped, the walk goes on.
    const [foreign] = await db.query(
      `INSERT INTO credentials (team_id, type, secrets_ciphertext) VALUES ($1, 'webhook', $2) RETURNING id`,
      [tenant.teamId, cipher('c'.repeat(64)).sealSecrets({ signingSecret: 'x' })],
    );
    const progress: number[] = [];
    const report = await rotateCredentialsKey(db, rotating, {
      batch: 2,
      onProgress: (r) => progress.push(r.examined),
    });
    // (Rows of other spec files sharing this worker's database may be unreadable too.)
    expect(report.unreadable).toContain(foreign.id);
    expect(report.unreadable.filter((u) => ids.includes(u))).toEqual([]);
    expect(report.resealed).toBe(dry.resealed);
    expect(progress.length).toBeGreaterThanOrEqual(3);

    const after = await sealedOf(ids);
    expect(after.every((s) => s.startsWith(`v2:${rotating.keyId}:`))).toBe(true);
    // Readable with the new key alone; the old key alone no longer opens them.
    const newOnly = cipher(NEW_KEY);
    expect(after.map((s) => newOnly.openSecrets(s).signingSecret).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `whsec_rotation_secret_${i}`),
    );
    expect(() => oldCipher.openSecrets(after[0])).toThrow(/unknown key/);

    // Nothing left to do on a second run.
    const again = await rotateCredentialsKey(db, rotating);
    expect(again.resealed).toBe(0);
    expect(again.unreadable).toContain(foreign.id);
    await db.query('DELETE FROM credentials WHERE id = $1', [foreign.id]);
  });

  it('re-seals the copies of retired tracking credentials kept for their stops', async () => {
    const [retired] = await db.query(
      `INSERT INTO retired_tracking_credentials (id, team_id, type, parameters,
              secrets_ciphertext, retired_from)
       VALUES (gen_random_uuid(), $1, '17track', '{}', $2, gen_random_uuid()) RETURNING id`,
      [tenant.teamId, cipher(OLD_KEY).sealSecrets({ apiKey: 'st-key-retired-0001' })],
    );
    const rotating = cipher(NEW_KEY, [OLD_KEY]);
    await rotateCredentialsKey(db, rotating);
    const [row] = await db.query(
      'SELECT secrets_ciphertext FROM retired_tracking_credentials WHERE id = $1',
      [retired.id],
    );
    expect(row.secrets_ciphertext.startsWith(`v2:${rotating.keyId}:`)).toBe(true);
    expect(cipher(NEW_KEY).openSecrets(row.secrets_ciphertext)).toEqual({
      apiKey: 'st-key-retired-0001',
    });
    await db.query('DELETE FROM retired_tracking_credentials WHERE id = $1', [retired.id]);
  });

  it('re-seals mails still queued, and leaves sent ones alone', async () => {
    const message = { to: 'dorothy@example.com', subject: 'Your code', text: 'Code 123456' };
    const queued = await app
      .get(JobQueue)
      .send(MAIL_QUEUE, sealMail(cipher(OLD_KEY), message), { startAfter: 3600 });
    const done = await app
      .get(JobQueue)
      .send(MAIL_QUEUE, sealMail(cipher(OLD_KEY), message), { startAfter: 3600 });
    await db.query(`UPDATE pgboss.job SET state = 'completed' WHERE id = $1`, [done]);
    const sealedJob = async (id: string | null) =>
      (await db.query(`SELECT data FROM pgboss.job WHERE id = $1`, [id]))[0].data;
    const rotating = cipher(NEW_KEY, [OLD_KEY]);
    const report = await rotateCredentialsKey(db, rotating);
    expect(report.unreadable.filter((u) => u.includes(String(queued)))).toEqual([]);
    // Readable with the new key alone: the old one can be dropped.
    expect(openMail(cipher(NEW_KEY), await sealedJob(queued))).toEqual(message);
    expect((await sealedJob(done)).sealed.startsWith(`v2:${cipher(OLD_KEY).keyId}:`)).toBe(true);
    await db.query(`DELETE FROM pgboss.job WHERE id = ANY($1::uuid[])`, [[queued, done]]);
  });

  it('runs as `npm run cli -- rotate-credentials-key` and the API reads the result', async () => {
    const id = await createCredentials('whsec_cli_rotation_9876');
    // Exit code 1 when some row (of another spec file in this database) opens with no key.
    const { stdout } = await run('npm', ['run', 'cli', '--', 'rotate-credentials-key'], {
      cwd: ROOT,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        CREDENTIALS_ENCRYPTION_KEY: NEW_KEY,
        CREDENTIALS_ENCRYPTION_KEY_PREVIOUS: `${'d'.repeat(64)}, ${OLD_KEY}`,
      },
      timeout: 120_000,
    }).catch((error: { code: number; stdout: string }) => {
      expect(error.code).toBe(1);
      return error;
    });
    const result = JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1));
    expect(result).toMatchObject({ keyId: cipher(NEW_KEY).keyId, dryRun: false });
    expect(result.unreadable).not.toContain(id);
    expect(result.resealed).toBeGreaterThanOrEqual(1);
    const [sealed] = await sealedOf([id]);
    expect(cipher(NEW_KEY).openSecrets(sealed)).toEqual({
      signingSecret: 'whsec_cli_rotation_9876',
    });
    // This app still runs with the old key only: reading the masked hint needs no secret.
    await api(app, { token: tenant.token })
      .get(`/credentials/${id}`)
      .expect(200)
      .expect((res) => expect(res.body.secrets).toEqual({ signingSecret: '********9876' }));
  });

  it('refuses bad arguments without touching the database', async () => {
    await expect(
      run('npm', ['run', 'cli', '--', 'rotate-credentials-key', '--batch', '0'], {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: 'warn' },
        timeout: 120_000,
      }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--batch') });
  });
});
