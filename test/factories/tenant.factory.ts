import type { INestApplication } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { hashToken } from '../../src/access/principal-loader';

export interface Tenant {
  userId: string;
  email: string;
  teamId: string;
  workspaceId: string;
  token: string;
}

/**
 * A fresh user owning a fresh team with one workspace, and a valid bearer
 * token, written straight to the database (fast; no HTTP round trips). Each
 * test creates its own tenant, so tests never see each other's rows.
 */
export async function createTenant(
  app: INestApplication,
  opts: { workspaceTitle?: string; role?: 'owner' | 'admin' | 'member' } = {},
): Promise<Tenant> {
  const db = app.get(DataSource);
  const email = `user-${randomUUID()}@example.test`;
  const [user] = await db.query(
    `INSERT INTO "user" (email, email_verified) VALUES ($1, true) RETURNING id`,
    [email],
  );
  const [team] = await db.query(`INSERT INTO team (name) VALUES ($1) RETURNING id`, [
    `Team ${email}`,
  ]);
  await db.query(`INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, $3)`, [
    team.id,
    user.id,
    opts.role ?? 'owner',
  ]);
  const [workspace] = await db.query(
    `INSERT INTO workspace (team_id, title) VALUES ($1, $2) RETURNING id`,
    [team.id, opts.workspaceTitle ?? 'Main store'],
  );
  if ((opts.role ?? 'owner') === 'member') {
    await db.query(`INSERT INTO workspace_member (workspace_id, user_id) VALUES ($1, $2)`, [
      workspace.id,
      user.id,
    ]);
  }
  const token = await issueToken(app, user.id);
  return { userId: user.id, email, teamId: team.id, workspaceId: workspace.id, token };
}

export async function issueToken(
  app: INestApplication,
  userId: string,
  ttlSeconds = 3600,
): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await app
    .get(DataSource)
    .query(
      `INSERT INTO access_token (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [hashToken(token), userId, ttlSeconds],
    );
  return token;
}

/** Another workspace in the tenant's team. */
export async function addWorkspace(
  app: INestApplication,
  tenant: Tenant,
  title = 'Second store',
): Promise<string> {
  const [w] = await app
    .get(DataSource)
    .query(`INSERT INTO workspace (team_id, title) VALUES ($1, $2) RETURNING id`, [
      tenant.teamId,
      title,
    ]);
  return w.id;
}
