import { isEmail } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { hashPassword } from '../../auth/password-hasher';
import { hashToken, randomSecret } from '../../auth/secret-token';
import { newPublicId } from '../../oauth-clients/oauth-clients.service';
import { MIN_PASSWORD_LENGTH } from '../../users/password-policy';
import { CliUsageError } from '../cli-command';

export interface BootstrapInput {
  email: string;
  password?: string;
  team?: string;
  workspace?: string;
}

export interface BootstrapResult {
  user_id: string;
  email: string;
  team_id: string;
  workspace_id: string;
  client_id: string;
  client_secret: string;
}

/** Name of the OAuth client the command keeps (its secret is replaced on each run). */
export const BOOTSTRAP_CLIENT_NAME = 'CLI bootstrap';

export function checkBootstrapInput(input: BootstrapInput): void {
  if (!isEmail(input.email ?? '')) throw new CliUsageError('--email must be an e-mail address.');
  if (input.password !== undefined && [...input.password].length < MIN_PASSWORD_LENGTH) {
    throw new CliUsageError(`--password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  for (const [flag, value] of [
    ['--team', input.team],
    ['--workspace', input.workspace],
  ] as const) {
    if (value !== undefined && (!value.trim() || value.length > 255)) {
      throw new CliUsageError(`${flag} must be 1 to 255 characters.`);
    }
  }
}

/**
 * Creates or reuses, in one transaction: a verified user (the password is set when given),
 * a team the user owns (by name), a workspace of that team (by title), and the user's
 * "CLI bootstrap" OAuth client with a new secret. Running it twice is safe.
 */
export async function bootstrapAccount(
  em: EntityManager,
  input: BootstrapInput,
): Promise<BootstrapResult> {
  const email = input.email.trim();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const [user] = await em.query(
    `INSERT INTO "user" (email, email_verified, password_hash) VALUES ($1, true, $2)
     ON CONFLICT (email) DO UPDATE SET email_verified = true,
       password_hash = COALESCE(EXCLUDED.password_hash, "user".password_hash), updated_at = now()
     RETURNING id, email::text AS email`,
    [email, passwordHash],
  );

  const teamName = input.team?.trim();
  const owned = await em.query(
    `SELECT t.id, t.name FROM team t JOIN team_member m ON m.team_id = t.id
      WHERE m.member_id = $1 AND m.role IN ('owner', 'admin') ORDER BY t.created_at, t.id`,
    [user.id],
  );
  let team = teamName ? owned.find((t: { name: string }) => t.name === teamName) : owned[0];
  if (!team) {
    [team] = await em.query(`INSERT INTO team (name) VALUES ($1) RETURNING id`, [
      teamName ?? (email.split('@')[0] || 'My team'),
    ]);
    await em.query(`INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'owner')`, [
      team.id,
      user.id,
    ]);
  }

  const title = input.workspace?.trim();
  const workspaces = await em.query(
    `SELECT id, title FROM workspace WHERE team_id = $1 AND NOT scheduled_for_delete ORDER BY created_at, id`,
    [team.id],
  );
  let workspace = title
    ? workspaces.find((w: { title: string }) => w.title === title)
    : workspaces[0];
  if (!workspace) {
    [workspace] = await em.query(
      `INSERT INTO workspace (team_id, title) VALUES ($1, $2) RETURNING id`,
      [team.id, title ?? 'My workspace'],
    );
  }

  const secret = randomSecret();
  let [client] = await em.query(
    `SELECT id, public_id FROM oauth_client WHERE user_id = $1 AND name = $2 ORDER BY created_at LIMIT 1`,
    [user.id, BOOTSTRAP_CLIENT_NAME],
  );
  if (client) {
    await em.query(`UPDATE oauth_client SET secret_hash = $2 WHERE id = $1`, [
      client.id,
      hashToken(secret),
    ]);
  } else {
    [client] = await em.query(
      `INSERT INTO oauth_client (user_id, name, public_id, secret_hash) VALUES ($1, $2, $3, $4) RETURNING id`,
      [user.id, BOOTSTRAP_CLIENT_NAME, newPublicId(randomSecret(8)), hashToken(secret)],
    );
    client.public_id = newPublicId(client.id);
    await em.query(`UPDATE oauth_client SET public_id = $2 WHERE id = $1`, [
      client.id,
      client.public_id,
    ]);
  }

  return {
    user_id: user.id,
    email: user.email,
    team_id: team.id,
    workspace_id: workspace.id,
    client_id: client.public_id,
    client_secret: secret,
  };
}
