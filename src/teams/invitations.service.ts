import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { hashToken, randomSecret } from '../auth/secret-token';
import { AppConfig } from '../config/app-config';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { link } from '../mail/links';
import { MailDispatcher } from '../mail/mail-dispatcher';
import { removeNotesOfDeleted } from '../notes/record-notes';
import { WorkspaceMemberStore } from '../workspaces/workspace-member-store';
import type { TeamRole } from './team-member.entity';
import {
  TeamMemberStore,
  type PendingInvitation,
  type WorkspacePermission,
} from './team-member-store';
import { TeamStore } from './team-store';

/** How long an invitation code stays valid. */
export const INVITATION_LIFETIME = 14 * 24 * 3600;

export interface InviteResult {
  teamMemberId: string;
}

/**
 * Inviting people into a team by e-mail. Every address, with an account or not, gets a
 * pending membership and an invitation code: nobody is made a member of a team without
 * accepting, and the answer (a pending member with only the typed address) is the same
 * whether the address has an account, so inviting cannot probe for accounts. The invitee
 * accepts by signing up with the code (an existing account keeps its password), or, for an
 * address not yet verified, by verifying it. Workspace access given with the invitation is
 * applied then.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly mail: MailDispatcher,
    private readonly teams: TeamStore,
    private readonly members: TeamMemberStore,
    private readonly workspaceMembers: WorkspaceMemberStore,
  ) {}

  async invite(
    em: EntityManager,
    inviter: { userId: string; email: string },
    teamId: string,
    rawEmail: string,
    role: TeamRole,
    permissions: WorkspacePermission[],
    property = 'invitedEmail',
  ): Promise<InviteResult> {
    const email = rawEmail.trim();
    const teamName = await this.teams.name(em, teamId);
    // Only the team's own members are told apart (its admins see them anyway).
    if (await this.members.memberByEmail(em, teamId, email)) {
      throw ValidationError.of(
        property,
        'This user is already a member of the team.',
        ViolationCodes.unique,
      );
    }
    const code = randomSecret();
    const teamMemberId = await this.members.upsertInvitation(em, {
      teamId,
      email,
      role,
      codeHash: hashToken(code),
      invitedAt: this.clock.now(),
      permissions: grants(permissions),
    });
    this.sendInvitation(email, teamName ?? '', inviter.email, code);
    return { teamMemberId };
  }

  /** A new code for a pending invitation (the old one stops working). */
  async resend(em: EntityManager, inviterEmail: string, teamMemberId: string): Promise<void> {
    const invitation = await this.members.invitation(em, teamMemberId);
    if (!invitation || invitation.member_id) {
      throw ValidationError.of(
        'invitedEmail',
        'This invitation was already accepted.',
        ViolationCodes.invalid,
      );
    }
    const code = randomSecret();
    await this.members.renewInvitationCode(em, teamMemberId, hashToken(code), this.clock.now());
    this.sendInvitation(invitation.email, invitation.name, inviterEmail, code);
  }

  /** The pending, unexpired invitation of `email` with `code`, or null. */
  async find(
    em: EntityManager,
    email: string,
    code: string,
  ): Promise<{ id: string; teamId: string; teamName: string } | null> {
    const since = new Date(this.clock.now().getTime() - INVITATION_LIFETIME * 1000);
    const row = await this.members.findInvitation(em, hashToken(code), email.trim(), since);
    return row ? { id: row.id, teamId: row.team_id, teamName: row.name } : null;
  }

  /**
   * Accepts every pending invitation of a verified address: the user becomes a member with
   * the invited role and gets the invited workspace access.
   */
  async acceptAll(em: EntityManager, userId: string, email: string): Promise<void> {
    for (const invitation of await this.members.pendingFor(em, email))
      await this.acceptPending(em, invitation, userId);
  }

  /** Accepts one pending invitation (found with its code) for the user of its address. */
  async accept(em: EntityManager, invitationId: string, userId: string): Promise<void> {
    const invitation = await this.members.pending(em, invitationId);
    if (invitation) await this.acceptPending(em, invitation, userId);
  }

  /**
   * Grants (upsert) or revokes (accessLevel null) workspace access of a team member. Only
   * workspaces of that team are touched; the notes on a revoked access go with it.
   */
  async applyPermissions(
    em: EntityManager,
    teamId: string,
    userId: string,
    permissions: WorkspacePermission[],
  ): Promise<void> {
    for (const p of permissions) {
      if (p.accessLevel === null) {
        const gone = await this.workspaceMembers.revoke(em, teamId, p.workspaceId, userId);
        await removeNotesOfDeleted(em, 'workspace_members', gone);
      } else {
        await this.workspaceMembers.grant(em, teamId, p.workspaceId, userId, p.accessLevel);
      }
    }
  }

  /** A member already (another invitation was accepted first): the invitation just goes. */
  private async acceptPending(
    em: EntityManager,
    invitation: PendingInvitation,
    userId: string,
  ): Promise<void> {
    if (await this.members.membershipOf(em, invitation.team_id, userId))
      await this.members.delete(em, invitation.id);
    else await this.members.accept(em, invitation.id, userId);
    await this.applyPermissions(
      em,
      invitation.team_id,
      userId,
      invitation.invited_permissions ?? [],
    );
  }

  private sendInvitation(
    email: string,
    teamName: string,
    inviterEmail: string,
    code: string,
  ): void {
    this.mail.dispatch({
      to: email,
      subject: `Invitation to join the team ${teamName}`,
      text:
        `${inviterEmail} invited you to join the team "${teamName}".\n\n` +
        `Invitation code: ${code}\n\n` +
        `Create your account at ${link(this.config, '/')} with this e-mail address and the code\n` +
        `(POST /security/signup with "email" and "invitationCode"); if you already have an\n` +
        `account, the same accepts the invitation and keeps your password.\n` +
        `The invitation is valid for ${INVITATION_LIFETIME / 86400} days.\n`,
    });
  }
}

/** What an invitation grants: the permissions that give access (a revocation grants nothing). */
function grants(permissions: WorkspacePermission[]): WorkspacePermission[] {
  return permissions.filter((p) => p.accessLevel !== null);
}
