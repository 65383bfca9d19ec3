import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { literalRefusal, resolveOutboundTarget } from '../../src/common/outbound/outbound-target';
import { loadConfig } from '../../src/config/load-config';
import { CredentialsCipher } from '../../src/credentials/credentials-cipher';
import { SecretBox } from '../../src/credentials/secret-box';
import { NodeTlsProbe } from '../../src/domains/tls-probe';
import { smtpAddress, SmtpRefusedError } from '../../src/mail/smtp-transport';
import { WebhookSender } from '../../src/webhooks/webhook-sender';
import { joinTeam } from '../factories/identity.factory';
import { addWorkspace, createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/** Addresses that embed or translate to private IPv4 ones, missed by the former theme guard. */
const EMBEDDED_PRIVATE = ['2002:7f00:1::1', '64:ff9b:1::a00:1', '2001:db8::1', '192.88.99.1'];

/**
 * Issue 11 item 13: one outbound policy for every connection made for a user (webhooks, theme
 * pages, SMTP, the custom-domain TLS probe); a workflow PUT cannot move it into a read-only
 * workspace; workspace_permissions_batch takes seats; a zero-setup deployment seals
 * credentials with a random key of its own.
 */
describe('security: outbound policy and smaller holes', () => {
  let app: NestExpressApplication;
  let owner: Tenant;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.BILLING_ENFORCE_ENTITLEMENTS = 'true';
    // Plans (and so seats) apply where billing is configured; without it a team is
    // self-hosted and unlimited (issue 12). Nothing here calls the provider.
    process.env.BILLING_PROVIDER_URL = 'http://127.0.0.1:9/billing';
    app = await createTestApp();
    owner = await createTenant(app);
  });
  afterAll(async () => {
    process.env = saved;
    await closeTestApp(app);
  });

  it.each(EMBEDDED_PRIVATE)('theme generation refuses %s', async (address) => {
    const res = await api(app)
      .post('/public/generate-theme', {
        url: `http://[${address}]/`.replace(/\[(\d+\.\d+\.\d+\.\d+)\]/, '$1'),
      })
      .expect(422);
    expect(res.body.violations[0].message).toMatch(/not a public internet address/);
  });

  it.each(EMBEDDED_PRIVATE)('webhooks and SMTP refuse %s alike', async (address) => {
    const literal = address.includes(':') ? `[${address}]` : address;
    expect(app.get(WebhookSender).staticProblem(`https://${literal}/hook`)).toMatch(/private/);
    await expect(smtpAddress(address, [])).rejects.toBeInstanceOf(SmtpRefusedError);
    expect(literalRefusal(address, { allowedHosts: [] })).not.toBeNull();
    await expect(
      resolveOutboundTarget('rebind.example', {
        allowedHosts: [],
        lookup: async () => [{ address, family: address.includes(':') ? 6 : 4 }],
      }),
    ).rejects.toThrow(/refused: not a public address/);
  });

  describe('the custom-domain TLS probe', () => {
    let server: Server;
    let connections = 0;

    beforeAll(async () => {
      server = createServer({}, (socket) => socket.end());
      server.on('connection', () => connections++);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('never connects to a private address', async () => {
      const port = (server.address() as AddressInfo).port;
      const probe = new NodeTlsProbe({ port, timeoutMs: 500 });
      expect(await probe.validCertificate('shop.example', '127.0.0.1')).toBe(false);
      expect(await probe.validCertificate('shop.example', '::ffff:127.0.0.1')).toBe(false);
      expect(connections).toBe(0);
    });
  });

  it('a workflow PUT cannot move it into a workspace where the caller is read-only', async () => {
    const second = await addWorkspace(app, owner);
    const member = await joinTeam(app, owner, 'member', [owner.workspaceId, second]);
    const db = app.get(DataSource);
    await db.query(
      `UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1 AND workspace_id = $2`,
      [member.userId, second],
    );
    const http = api(app, { token: member.token });
    const created = await http
      .post('/workflows', {
        title: 'Mine',
        type: 'api',
        workspace: `/workspaces/${owner.workspaceId}`,
        period: 'manual',
      })
      .expect(201);
    await http
      .put(`/workflows/${created.body.id}`, {
        title: 'Mine',
        type: 'api',
        workspace: `/workspaces/${second}`,
        period: 'manual',
      })
      .expect(403);
    const [row] = await db.query(`SELECT workspace_id FROM workflow WHERE id = $1`, [
      created.body.id,
    ]);
    expect(row.workspace_id).toBe(owner.workspaceId);
  });

  it('workspace_permissions_batch invitations take seats of the plan', async () => {
    const team = await createTenant(app);
    const invite = (name: string) =>
      api(app, { token: team.token }).post('/workspace_permissions_batch', {
        inviteMode: true,
        changes: [
          {
            email: `${name}-${team.userId}@example.test`,
            permissions: [{ workspaceId: team.workspaceId, accessLevel: 'read' }],
          },
        ],
      });
    await invite('first').expect(201);
    const refused = await invite('second').expect(422);
    expect(refused.body.violations[0].propertyPath).toBe('changes');
    const [{ n }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM team_member WHERE team_id = $1`, [team.teamId]);
    expect(n).toBe(2);
  });

  it('without NODE_ENV, credentials are sealed with a random key kept in DATA_DIR', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'credentials-key-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.NODE_ENV;
      delete env.CREDENTIALS_ENCRYPTION_KEY;
      const config = loadConfig(env);
      const first = new CredentialsCipher(config);
      const sealed = first.sealSecrets({ password: 'p@ss' })!;
      const file = join(dataDir, 'credentials-key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim()).toMatch(/^[\w-]{43}$/);
      // The next start reads the same key; the former public key opens nothing.
      expect(new CredentialsCipher(config).openSecrets(sealed)).toEqual({ password: 'p@ss' });
      const publicKey = SecretBox.fromSetting(
        'shipment-tracking development credentials key (not secret)',
      );
      expect(() => publicKey.open(sealed)).toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
