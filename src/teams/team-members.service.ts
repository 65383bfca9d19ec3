import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { EntitlementsGuard } from '../billing/entitlements-guard';
import {
  ForbiddenError,
  NotFoundError,
  ValidationError,
  ViolationCodes,
} from '../common/errors/api-errors';
import { removeNotesOfDeleted } from '../notes/record-notes';
import { checkPermissionTargets, readPermissions } from '../workspace-members/permissions-input';
import { WorkspaceMemberStore } from '../workspaces/workspace-member-store';
import { WorkspaceStore } from '../workspaces/workspace-store';
import { InvitationsService } from './invitations.service';
import { TeamMemberStore, type MemberRow } from './team-member-store';

/**
 * Writes of team memberships, with the rules on roles the declared access cannot say: an
 * owner's role never changes, an owner is never removed by someone else, the last owner
 * cannot leave, and any member may leave.
 */
@Injectable()
export class TeamMembersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly modules: ModuleRef,
    private readonly invitations: InvitationsService,
    private readonly members: TeamMemberStore,
    private readonly workspaces: WorkspaceStore,
    private readonly workspaceMembers: WorkspaceMemberStore,
  ) {}

  /** Invites `email` into `teamId` (already access-checked); answers the membership's id. */
  async invite(
    principal: Principal,
    teamId: string,
    email: string,
    admin: boolean,
    rawPermissions: unknown,
  ): Promise<string> {
    const permissions = readPermissions(rawPermissions, 'permissions');
    const result = await this.dataSource.transaction(async (em) => {
      const teamOf = await this.workspaces.teamsOf(
        em,
        permissions.map((p) => p.workspaceId),
      );
      checkPermissionTargets(teamOf, principal, permissions, 'permissions', teamId);
      // Invitations take a seat of the team's plan (billing), like members do.
      await this.modules
        .get(EntitlementsGuard, { strict: false })
        .assertAvailable(em, teamId, 'users', 'team');
      return this.invitations.invite(
        em,
        principal,
        teamId,
        email,
        admin ? 'admin' : 'member',
        permissions,
      );
    });
    return result.teamMemberId;
  }

  /** Promotes or demotes a non-owner; an owner stays one (422 when asked otherwise). */
  async changeRole(id: string, admin: boolean | null | undefined): Promise<void> {
    if (admin === null || admin === undefined) return;
    await this.dataSource.transaction(async (em) => {
      const member = await this.lock(em, id);
      if (member.role === 'owner') {
        if (admin) return;
        throw ValidationError.of(
          'teamAdmin',
          'The role of a team owner cannot be changed.',
          ViolationCodes.invalid,
        );
      }
      await this.members.setRole(em, id, admin ? 'admin' : 'member');
    });
  }

  /**
   * Removes a member (or cancels an invitation), or lets the caller leave: others need the
   * team's admin role (403), owners are only removed by leaving, and not the last one (422).
   */
  async remove(principal: Principal, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const member = await this.lock(em, id);
      const self = member.member_id === principal.userId;
      if (!self && !principal.adminTeamIds.includes(member.team_id)) {
        throw new ForbiddenError('Only owners and admins of the team remove members.');
      }
      if (member.role === 'owner') {
        if (!self) throw new ForbiddenError('A team owner cannot be removed.');
        if ((await this.members.ownerCount(em, member.team_id)) <= 1) {
          throw ValidationError.of(
            'member',
            'The last owner cannot leave the team; delete the team instead.',
            ViolationCodes.invalid,
          );
        }
      }
      if (member.member_id) {
        // Access to the team's workspaces ends with the membership (notes on it go too).
        const gone = await this.workspaceMembers.revokeAllInTeam(
          em,
          member.team_id,
          member.member_id,
        );
        await removeNotesOfDeleted(em, 'workspace_members', gone);
      }
      await this.members.delete(em, id);
    });
  }

  /** A new invitation code by e-mail (422 once the invitation was accepted). */
  async resendInvite(principal: Principal, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.lock(em, id);
      await this.invitations.resend(em, principal.email, id);
    });
  }

  /** The membership, locked; 404 when it went away since the access check. */
  private async lock(em: EntityManager, id: string): Promise<MemberRow> {
    const row = await this.members.lock(em, id);
    if (!row) throw new NotFoundError();
    return row;
  }
}
