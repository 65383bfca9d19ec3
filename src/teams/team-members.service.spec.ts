import type { ModuleRef } from '@nestjs/core';
import type { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { hashToken } from '../auth/secret-token';
import type { Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { ForbiddenError, NotFoundError, ValidationError } from '../common/errors/api-errors';
import type { MailDispatcher } from '../mail/mail-dispatcher';
import type { MailMessage } from '../mail/mailer';
import { removeNotesOfDeleted } from '../notes/record-notes';
import type { GoneMembership, WorkspaceMemberStore } from '../workspaces/workspace-member-store';
import type { WorkspaceStore } from '../workspaces/workspace-store';
import { INVITATION_LIFETIME, InvitationsService } from './invitations.service';
import type { TeamRole } from './team-member.entity';
import type {
  MemberRow,
  NewInvitation,
  PendingInvitation,
  TeamMemberStore,
  WorkspacePermission,
} from './team-member-store';
import type { TeamStore } from './team-store';
import { TeamMembersService } from './team-members.service';

// Notes on a revoked workspace access are the notes module's: only that they are asked for.
jest.mock('../notes/record-notes', () => ({ removeNotesOfDeleted: jest.fn(async () => 0) }));

const TEAM = 'team-1';
const OTHER_TEAM = 'team-2';
const NOW = new Date('2026-03-01T12:00:00Z');
const W1 = '00000000-0000-4000-8000-000000000001';
const W2 = '00000000-0000-4000-8000-000000000002';
/** A workspace of the other team. */
const W9 = '00000000-0000-4000-8000-000000000009';

interface Membership extends MemberRow {
  email: string | null;
  codeHash: string | null;
  invitedAt: Date | null;
  permissions: WorkspacePermission[];
}

/** team_member in memory: the rows the rules read and write. */
class FakeTeamMembers implements TeamMemberStore {
  rows = new Map<string, Membership>();
  private next = 1;
  /** User ids by account address (the user table, as memberByEmail joins it). */
  accounts = new Map<string, string>();

  member(teamId: string, userId: string, role: TeamRole, email = `${userId}@example.test`) {
    const id = `m${this.next++}`;
    this.accounts.set(email, userId);
    this.rows.set(id, {
      id,
      team_id: teamId,
      member_id: userId,
      role,
      email: null,
      codeHash: null,
      invitedAt: null,
      permissions: [],
    });
    return id;
  }

  async lock(_db: unknown, id: string) {
    const row = this.rows.get(id);
    return row && { id: row.id, team_id: row.team_id, member_id: row.member_id, role: row.role };
  }
  async add(_db: unknown, teamId: string, userId: string, role: TeamRole) {
    this.member(teamId, userId, role);
  }
  async setRole(_db: unknown, id: string, role: TeamRole) {
    this.rows.get(id)!.role = role;
  }
  async ownerCount(_db: unknown, teamId: string) {
    return [...this.rows.values()].filter(
      (r) => r.team_id === teamId && r.role === 'owner' && r.member_id,
    ).length;
  }
  async delete(_db: unknown, id: string) {
    this.rows.delete(id);
  }
  async membershipOf(_db: unknown, teamId: string, userId: string) {
    return [...this.rows.values()].find((r) => r.team_id === teamId && r.member_id === userId)?.id;
  }
  async memberByEmail(_db: unknown, teamId: string, email: string) {
    const userId = this.accounts.get(email);
    return userId && (await this.membershipOf(_db, teamId, userId)) ? userId : undefined;
  }
  async administeredBy() {
    return [];
  }
  async upsertInvitation(_db: unknown, invitation: NewInvitation) {
    const pending = [...this.rows.values()].find(
      (r) => r.team_id === invitation.teamId && !r.member_id && r.email === invitation.email,
    );
    const id = pending?.id ?? `m${this.next++}`;
    this.rows.set(id, {
      id,
      team_id: invitation.teamId,
      member_id: null,
      role: invitation.role,
      email: invitation.email,
      codeHash: invitation.codeHash,
      invitedAt: invitation.invitedAt,
      permissions: invitation.permissions,
    });
    return id;
  }
  async invitation(_db: unknown, id: string) {
    const row = this.rows.get(id);
    return row && { email: row.email ?? '', member_id: row.member_id, name: `Team ${row.team_id}` };
  }
  async renewInvitationCode(_db: unknown, id: string, codeHash: string, invitedAt: Date) {
    Object.assign(this.rows.get(id)!, { codeHash, invitedAt });
  }
  async findInvitation(_db: unknown, codeHash: string, email: string, since: Date) {
    const row = [...this.rows.values()].find(
      (r) => r.codeHash === codeHash && !r.member_id && r.email === email && r.invitedAt! > since,
    );
    return row && { id: row.id, team_id: row.team_id, name: `Team ${row.team_id}` };
  }
  async pendingFor(_db: unknown, email: string): Promise<PendingInvitation[]> {
    return [...this.rows.values()]
      .filter((r) => !r.member_id && r.email === email)
      .map((r) => this.pendingOf(r));
  }
  async pending(_db: unknown, id: string) {
    const row = this.rows.get(id);
    return row && !row.member_id ? this.pendingOf(row) : undefined;
  }
  async pendingInTeam(_db: unknown, teamId: string, email: string) {
    const row = [...this.rows.values()].find(
      (r) => r.team_id === teamId && !r.member_id && r.email === email,
    );
    return row && { id: row.id, invited_permissions: row.permissions };
  }
  async accept(_db: unknown, id: string, userId: string) {
    Object.assign(this.rows.get(id)!, { member_id: userId, codeHash: null, permissions: [] });
  }
  async setInvitedPermissions(_db: unknown, id: string, permissions: WorkspacePermission[]) {
    this.rows.get(id)!.permissions = permissions;
  }
  private pendingOf(r: Membership): PendingInvitation {
    return { id: r.id, team_id: r.team_id, role: r.role, invited_permissions: r.permissions };
  }
}

/** workspace_member in memory, with the team of each workspace. */
class FakeWorkspaceAccess {
  teamOf = new Map<string, string>([
    [W1, TEAM],
    [W2, TEAM],
    [W9, OTHER_TEAM],
  ]);
  access = new Map<string, string>();
  private key = (workspaceId: string, userId: string) => `${workspaceId}|${userId}`;

  async grant(_db: unknown, teamId: string, workspaceId: string, userId: string, level: string) {
    if (this.teamOf.get(workspaceId) === teamId)
      this.access.set(this.key(workspaceId, userId), level);
  }
  async revoke(_db: unknown, teamId: string, workspaceId: string, userId: string) {
    const gone: GoneMembership[] = [];
    if (
      this.teamOf.get(workspaceId) === teamId &&
      this.access.delete(this.key(workspaceId, userId))
    )
      gone.push({ id: this.key(workspaceId, userId), workspace_id: workspaceId });
    return gone;
  }
  async revokeAllInTeam(_db: unknown, teamId: string, userId: string) {
    const gone: GoneMembership[] = [];
    for (const [workspaceId, team] of this.teamOf)
      if (team === teamId) gone.push(...(await this.revoke(_db, teamId, workspaceId, userId)));
    return gone;
  }
  async teamsOf(_db: unknown, ids: readonly string[]) {
    return new Map(ids.flatMap((id) => (this.teamOf.has(id) ? [[id, this.teamOf.get(id)!]] : [])));
  }
}

function principal(userId: string, admin: string[] = [], member: string[] = []): Principal {
  return {
    userId,
    email: `${userId}@example.test`,
    teamIds: [...admin, ...member],
    adminTeamIds: admin,
    workspaceIds: [],
  };
}

function setUp(
  entitlements: { assertAvailable: () => Promise<void> } = { async assertAvailable() {} },
) {
  const members = new FakeTeamMembers();
  const workspaces = new FakeWorkspaceAccess();
  const mails: MailMessage[] = [];
  const clock = { now: () => NOW } as Clock;
  const invitations = new InvitationsService(
    clock,
    { port: 8080 } as AppConfig,
    { dispatch: (m: MailMessage) => mails.push(m) } as unknown as MailDispatcher,
    { name: async (_db: unknown, id: string) => `Team ${id}` } as unknown as TeamStore,
    members,
    workspaces as unknown as WorkspaceMemberStore,
  );
  const em = {} as EntityManager;
  const dataSource = { transaction: (work: (em: EntityManager) => unknown) => work(em) };
  const service = new TeamMembersService(
    dataSource as unknown as DataSource,
    { get: () => entitlements } as unknown as ModuleRef,
    invitations,
    members,
    workspaces as unknown as WorkspaceStore,
    workspaces as unknown as WorkspaceMemberStore,
  );
  return { service, invitations, members, workspaces, mails, em };
}

const code = (mail: MailMessage) => /Invitation code: (\S+)/.exec(mail.text!)![1];

describe('TeamMembersService: roles', () => {
  it('never changes an owner’s role: demoting is a 422, promoting changes nothing', async () => {
    const { service, members } = setUp();
    const owner = members.member(TEAM, 'u-owner', 'owner');
    await expect(service.changeRole(owner, false)).rejects.toThrow(ValidationError);
    await service.changeRole(owner, true);
    expect(members.rows.get(owner)!.role).toBe('owner');
  });

  it('promotes and demotes other members; absent teamAdmin changes nothing', async () => {
    const { service, members } = setUp();
    const m = members.member(TEAM, 'u-1', 'member');
    await service.changeRole(m, true);
    expect(members.rows.get(m)!.role).toBe('admin');
    await service.changeRole(m, undefined);
    expect(members.rows.get(m)!.role).toBe('admin');
    await service.changeRole(m, false);
    expect(members.rows.get(m)!.role).toBe('member');
  });

  it('answers 404 for a membership gone since the access check', async () => {
    const { service } = setUp();
    await expect(service.changeRole('gone', true)).rejects.toThrow(NotFoundError);
    await expect(service.remove(principal('u', [TEAM]), 'gone')).rejects.toThrow(NotFoundError);
  });
});

describe('TeamMembersService: removing and leaving', () => {
  it('an owner is never removed by someone else, even an admin or another owner', async () => {
    const { service, members } = setUp();
    const owner = members.member(TEAM, 'u-owner', 'owner');
    members.member(TEAM, 'u-owner2', 'owner');
    await expect(service.remove(principal('u-owner2', [TEAM]), owner)).rejects.toThrow(
      'A team owner cannot be removed.',
    );
    expect(members.rows.has(owner)).toBe(true);
  });

  it('the last owner cannot leave (422); with another owner they may', async () => {
    const { service, members } = setUp();
    const owner = members.member(TEAM, 'u-owner', 'owner');
    const error = await service.remove(principal('u-owner', [TEAM]), owner).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).violations[0]).toMatchObject({
      propertyPath: 'member',
      message: 'The last owner cannot leave the team; delete the team instead.',
    });
    // A pending invitation as owner does not count as an owner.
    await members.upsertInvitation(null, {
      teamId: TEAM,
      email: 'x@example.test',
      role: 'owner',
      codeHash: 'h',
      invitedAt: NOW,
      permissions: [],
    });
    await expect(service.remove(principal('u-owner', [TEAM]), owner)).rejects.toThrow(
      ValidationError,
    );
    members.member(TEAM, 'u-owner2', 'owner');
    await service.remove(principal('u-owner', [TEAM]), owner);
    expect(members.rows.has(owner)).toBe(false);
  });

  it('plain members remove only themselves (403 for others)', async () => {
    const { service, members } = setUp();
    const a = members.member(TEAM, 'u-a', 'member');
    const b = members.member(TEAM, 'u-b', 'member');
    await expect(service.remove(principal('u-a', [], [TEAM]), b)).rejects.toThrow(ForbiddenError);
    await service.remove(principal('u-a', [], [TEAM]), a);
    expect([...members.rows.keys()]).toEqual([b]);
  });

  it('leaving ends the access to the team’s workspaces only, and takes their notes', async () => {
    const { service, members, workspaces } = setUp();
    const m = members.member(TEAM, 'u-1', 'member');
    await workspaces.grant(null, TEAM, W1, 'u-1', 'full');
    await workspaces.grant(null, OTHER_TEAM, W9, 'u-1', 'read');
    jest.mocked(removeNotesOfDeleted).mockClear();
    await service.remove(principal('u-admin', [TEAM]), m);
    expect([...workspaces.access.keys()]).toEqual([`${W9}|u-1`]);
    expect(removeNotesOfDeleted).toHaveBeenCalledWith({}, 'workspace_members', [
      { id: `${W1}|u-1`, workspace_id: W1 },
    ]);
  });

  it('an admin cancels an invitation: no workspace access to end', async () => {
    const { service, members } = setUp();
    const id = await service.invite(
      principal('u-admin', [TEAM]),
      TEAM,
      'new@example.test',
      false,
      [],
    );
    jest.mocked(removeNotesOfDeleted).mockClear();
    await service.remove(principal('u-admin', [TEAM]), id);
    expect(members.rows.has(id)).toBe(false);
    expect(removeNotesOfDeleted).not.toHaveBeenCalled();
  });
});

describe('TeamMembersService: invitations', () => {
  it('invites with a mailed code, stored only hashed, with the access it grants', async () => {
    const { service, members, mails } = setUp();
    const id = await service.invite(
      principal('u-admin', [TEAM]),
      TEAM,
      ' new@example.test ',
      true,
      [
        { workspaceId: `/workspaces/${W1}`, accessLevel: 'read' },
        { workspaceId: W2, accessLevel: null },
      ],
    );
    const row = members.rows.get(id)!;
    expect(row).toMatchObject({ member_id: null, role: 'admin', email: 'new@example.test' });
    expect(row.permissions).toEqual([{ workspaceId: W1, accessLevel: 'read' }]);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: 'new@example.test',
      subject: `Invitation to join the team Team ${TEAM}`,
    });
    expect(row.codeHash).toBe(hashToken(code(mails[0])));
  });

  it('refuses an address already in the team (422 at invitedEmail), answers others alike', async () => {
    const { service, members } = setUp();
    members.member(TEAM, 'u-in', 'member', 'in@example.test');
    members.accounts.set('elsewhere@example.test', 'u-out');
    const error = await service
      .invite(principal('u-admin', [TEAM]), TEAM, 'in@example.test', false, [])
      .catch((e) => e);
    expect((error as ValidationError).violations[0]).toMatchObject({
      propertyPath: 'invitedEmail',
      message: 'This user is already a member of the team.',
    });
    // An account that is not in the team gets a pending invitation like an unknown address.
    const id = await service.invite(
      principal('u-admin', [TEAM]),
      TEAM,
      'elsewhere@example.test',
      false,
      [],
    );
    expect(members.rows.get(id)!.member_id).toBeNull();
  });

  it('refuses workspaces of another team (422) and a team out of seats, inviting nobody', async () => {
    const { service, members } = setUp();
    await expect(
      service.invite(principal('u-admin', [TEAM, OTHER_TEAM]), TEAM, 'a@example.test', false, [
        { workspaceId: W9, accessLevel: 'full' },
      ]),
    ).rejects.toThrow(ValidationError);
    const full = setUp({
      assertAvailable: () => Promise.reject(new ForbiddenError('No seat left.')),
    });
    await expect(
      full.service.invite(principal('u-admin', [TEAM]), TEAM, 'a@example.test', false, []),
    ).rejects.toThrow('No seat left.');
    expect(members.rows.size + full.members.rows.size).toBe(0);
  });

  it('inviting again renews the pending invitation: one row, the old code stops working', async () => {
    const { service, invitations, members, mails, em } = setUp();
    const admin = principal('u-admin', [TEAM]);
    const first = await service.invite(admin, TEAM, 'a@example.test', false, []);
    const second = await service.invite(admin, TEAM, 'a@example.test', true, []);
    expect(second).toBe(first);
    expect(members.rows.size).toBe(1);
    expect(await invitations.find(em, 'a@example.test', code(mails[0]))).toBeNull();
    expect(await invitations.find(em, 'a@example.test', code(mails[1]))).toMatchObject({
      id: first,
    });
  });

  it('resending mails a new code; an accepted invitation is a 422', async () => {
    const { service, invitations, members, mails, em } = setUp();
    const admin = principal('u-admin', [TEAM]);
    const id = await service.invite(admin, TEAM, 'a@example.test', false, []);
    await service.resendInvite(admin, id);
    expect(mails).toHaveLength(2);
    expect(await invitations.find(em, 'a@example.test', code(mails[0]))).toBeNull();
    expect(await invitations.find(em, 'a@example.test', code(mails[1]))).not.toBeNull();
    await invitations.accept(em, id, 'u-new');
    await expect(service.resendInvite(admin, id)).rejects.toThrow(
      'This invitation was already accepted.',
    );
    expect(members.rows.get(id)!.member_id).toBe('u-new');
  });

  it('an invitation expires after its lifetime', async () => {
    const { invitations, members, em } = setUp();
    const id = await members.upsertInvitation(em, {
      teamId: TEAM,
      email: 'old@example.test',
      role: 'member',
      codeHash: hashToken('the code'),
      invitedAt: new Date(NOW.getTime() - INVITATION_LIFETIME * 1000 + 1000),
      permissions: [],
    });
    expect(await invitations.find(em, ' old@example.test', 'the code')).toMatchObject({
      id,
      teamId: TEAM,
    });
    members.rows.get(id)!.invitedAt = new Date(NOW.getTime() - INVITATION_LIFETIME * 1000);
    expect(await invitations.find(em, 'old@example.test', 'the code')).toBeNull();
  });

  it('accepting makes the member with the invited role and grants the invited access', async () => {
    const { service, invitations, members, workspaces, em } = setUp();
    const admin = principal('u-admin', [TEAM]);
    await service.invite(admin, TEAM, 'a@example.test', true, [
      { workspaceId: W2, accessLevel: 'read' },
    ]);
    await invitations.acceptAll(em, 'u-a', 'a@example.test');
    const [row] = members.rows.values();
    expect(row).toMatchObject({ member_id: 'u-a', role: 'admin', codeHash: null, permissions: [] });
    expect(workspaces.access.get(`${W2}|u-a`)).toBe('read');
  });

  it('an invitation into a team the user joined meanwhile just goes', async () => {
    const { service, invitations, members, em } = setUp();
    const id = await service.invite(
      principal('u-admin', [TEAM]),
      TEAM,
      'a@example.test',
      false,
      [],
    );
    const membership = members.member(TEAM, 'u-a', 'member');
    await invitations.accept(em, id, 'u-a');
    expect([...members.rows.keys()]).toEqual([membership]);
  });
});
