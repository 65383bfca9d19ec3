import type { NestExpressApplication } from '@nestjs/platform-express';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { closeTestApp, createTestApp, testAppUrl } from './support/app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

interface Credentials {
  base_url: string;
  token_url: string;
  user_id: string;
  email: string;
  team_id: string;
  workspace_id: string;
  client_id: string;
  client_secret: string;
}

/**
 * The README's quick start, command for command: `npm run cli -- bootstrap`, then curl for
 * a token, then curl GET /workspaces with it, against a listening app on the test database.
 */
describe('README quick start', () => {
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    base = testAppUrl(app);
  });
  afterAll(() => closeTestApp(app));

  const env = () => ({
    ...process.env,
    // The CLI reads the same configuration as the server.
    PORT: new URL(base).port,
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
  });

  async function bootstrap(args: string[]): Promise<Credentials> {
    const { stdout } = await run('npm', ['run', 'cli', '--', 'bootstrap', ...args], {
      cwd: ROOT,
      env: env(),
      timeout: 120_000,
    });
    // npm prints its own header lines before the command's JSON.
    return JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1));
  }

  async function curl(args: string[]): Promise<{ status: number; body: any }> {
    const { stdout } = await run('curl', ['-s', '-w', '\n%{http_code}', ...args], {
      timeout: 30_000,
    });
    const cut = stdout.lastIndexOf('\n');
    return { status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) };
  }

  it('bootstrap -> token with curl -> list workspaces', async () => {
    const email = `quickstart-${randomUUID()}@example.test`;
    const creds = await bootstrap([
      '--email',
      email,
      '--password',
      'quickstart password',
      '--team',
      'Acme',
      '--workspace',
      'Acme Store',
    ]);
    expect(creds).toEqual({
      base_url: base,
      token_url: `${base}/oauth/v2/token`,
      user_id: expect.any(String),
      email,
      team_id: expect.any(String),
      workspace_id: expect.any(String),
      client_id: expect.stringMatching(/^[0-9a-f-]{36}_[\w-]+$/),
      client_secret: expect.any(String),
    });

    // curl "$BASE/oauth/v2/token?grant_type=client_credentials&client_id=...&client_secret=..."
    const token = await curl([
      '-G',
      `${creds.base_url}/oauth/v2/token`,
      '--data-urlencode',
      'grant_type=client_credentials',
      '--data-urlencode',
      `client_id=${creds.client_id}`,
      '--data-urlencode',
      `client_secret=${creds.client_secret}`,
    ]);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      user_id: creds.user_id,
      user_email: email,
    });

    // curl -H "Authorization: Bearer $TOKEN" "$BASE/workspaces"
    const workspaces = await curl([
      '-H',
      `Authorization: Bearer ${token.body.access_token}`,
      `${creds.base_url}/workspaces`,
    ]);
    expect(workspaces.status).toBe(200);
    expect(workspaces.body['hydra:member']).toEqual([
      expect.objectContaining({
        '@id': `/workspaces/${creds.workspace_id}`,
        title: 'Acme Store',
        team: `/teams/${creds.team_id}`,
      }),
    ]);

    // Running it again reuses everything and replaces the client secret.
    const again = await bootstrap([
      '--email',
      email,
      '--team',
      'Acme',
      '--workspace',
      'Acme Store',
    ]);
    expect(again).toMatchObject({
      user_id: creds.user_id,
      team_id: creds.team_id,
      workspace_id: creds.workspace_id,
      client_id: creds.client_id,
    });
    expect(again.client_secret).not.toBe(creds.client_secret);
    const old = await curl([
      `${creds.base_url}/oauth/v2/token?grant_type=client_credentials&client_id=${encodeURIComponent(creds.client_id)}&client_secret=${encodeURIComponent(creds.client_secret)}`,
    ]);
    expect(old.status).toBe(400);
    expect(old.body.error).toBe('invalid_client');

    // The token sees the team bootstrap created.
    const teams = await curl([
      '-H',
      `Authorization: Bearer ${token.body.access_token}`,
      `${creds.base_url}/teams`,
    ]);
    expect(teams.body['hydra:member'].map((t: { name: string }) => t.name)).toEqual(['Acme']);
  });

  it('refuses bad arguments with exit code 2 and the usage', async () => {
    await expect(
      run('npm', ['run', 'cli', '--', 'bootstrap', '--email', 'not-an-email'], {
        cwd: ROOT,
        env: env(),
        timeout: 120_000,
      }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run cli -- bootstrap --email <address>'),
    });
  });
});
