import { isEmail } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { hashPassword } from '../../auth/password-hasher';
import { OauthClientStore } from '../../oauth-clients/oauth-client-store';
import { OauthClientsService } from '../../oauth-clients/oauth-clients.service';
import { TeamMemberStore } from '../../teams/team-member-store';
import { TeamStore } from '../../teams/team-store';
import { MIN_PASSWORD_LENGTH } from '../../users/password-policy';
import { UserStore } from '../../users/user-store';
import { WorkspaceStore } from '../../workspaces/workspace-store';
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

/** The stores bootstrapping writes through (their owners' SQL). */
export interface BootstrapStores {
  users: UserStore;
  teams: TeamStore;
  members: TeamMemberStore;
  workspaces: WorkspaceStore;
  clients: OauthClientsService;
}

/** The stores over a plain DataSource: the CLI runs without the application's modules. */
export function bootstrapStores(): BootstrapStores {
  return {
    users: new UserStore(),
    teams: new TeamStore(),
    members: new TeamMemberStore(),
    workspaces: new WorkspaceStore(),
    clients: new OauthClientsService(new OauthClientStore(), new UserStore()),
  };
}

/**
 * Creates or reuses, in one transaction: a verified user (the password is set when given),
 * a team the user owns (by name), a workspace of that team (by title), and the user's
 * "CLI bootstrap" OAuth client with a new secret. Running it twice is safe.
 */
export async function bootstrapAccount(
  em: EntityManager,
  input: BootstrapInput,
  stores: BootstrapStores = bootstrapStores(),
): Promise<BootstrapResult> {
  const email = input.email.trim();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const user = await stores.users.upsertVerified(em, email, passwordHash);

  const teamName = input.team?.trim();
  const owned = await stores.members.administeredBy(em, user.id, 'created');
  let teamId = (teamName ? owned.find((t) => t.name === teamName) : owned[0])?.id;
  if (!teamId) {
    teamId = await stores.teams.create(em, teamName ?? (email.split('@')[0] || 'My team'));
    await stores.members.add(em, teamId, user.id, 'owner');
  }

  const title = input.workspace?.trim();
  const workspaces = await stores.workspaces.liveOfTeam(em, teamId);
  const workspaceId =
    (title ? workspaces.find((w) => w.title === title) : workspaces[0])?.id ??
    (await stores.workspaces.create(em, teamId, title ?? 'My workspace'));

  const { client, secret } = await stores.clients.issueNamed(em, user.id, BOOTSTRAP_CLIENT_NAME);
  return {
    user_id: user.id,
    email: user.email,
    team_id: teamId,
    workspace_id: workspaceId,
    client_id: client.publicId,
    client_secret: secret,
  };
}
