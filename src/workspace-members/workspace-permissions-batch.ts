import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EntitlementsGuard } from '../billing/entitlements-guard';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { InvitationsService } from '../teams/invitations.service';
import { TeamMemberStore, type WorkspacePermission } from '../teams/team-member-store';
import { WorkspaceStore } from '../workspaces/workspace-store';
import { checkPermissionTargets, readPermissions } from './permissions-input';
import type { WorkspacePermissionsBatchInput } from './workspace-permissions-batch.input';
import type { WorkspacePermissionsBatchResult } from './workspace-permissions-batch.output';

type Outcome = 'updated' | 'invited';

/**
 * Grants (accessLevel full|read) or revokes (null or "none") workspace access of team members
 * in one transaction; with inviteMode, an address that is not in the workspace's team is
 * invited with that access. All or nothing: any invalid change is a 422 and nothing is
 * applied. Only owners and admins of each workspace's team may change it (422 otherwise,
 * like a workspace that does not exist: checkPermissionTargets).
 */
@Injectable()
export class WorkspacePermissionsBatch {
  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationsService,
    private readonly modules: ModuleRef,
    private readonly members: TeamMemberStore,
    private readonly workspaces: WorkspaceStore,
  ) {}

  async apply(
    principal: Principal,
    input: WorkspacePermissionsBatchInput,
  ): Promise<WorkspacePermissionsBatchResult> {
    const inviteMode = input.inviteMode ?? false;
    const changes = (input.changes ?? []).map((change, i) => ({
      email: change.email,
      permissions: readPermissions(change.permissions, `changes[${i}].permissions`),
    }));
    const outcomes = await this.dataSource.transaction(async (em) => {
      const violations: Violation[] = [];
      const results: Outcome[] = [];
      for (const [i, change] of changes.entries()) {
        const teamOf = await this.workspaces.teamsOf(
          em,
          change.permissions.map((p) => p.workspaceId),
        );
        const teams = checkPermissionTargets(
          teamOf,
          principal,
          change.permissions,
          `changes[${i}].permissions`,
        );
        const byTeam = new Map<string, WorkspacePermission[]>();
        for (const p of change.permissions) {
          const team = teams.get(p.workspaceId)!;
          byTeam.set(team, [...(byTeam.get(team) ?? []), p]);
        }
        let outcome: Outcome = 'updated';
        for (const [teamId, permissions] of byTeam) {
          const result = await this.applyToTeam(
            em,
            principal,
            teamId,
            change.email,
            permissions,
            inviteMode,
          );
          if (result === null) {
            violations.push({
              propertyPath: `changes[${i}].email`,
              message: 'This person is not a member of the team; set inviteMode to invite them.',
              code: ViolationCodes.invalid,
            });
          } else if (result !== 'updated') outcome = result;
        }
        results.push(outcome);
      }
      if (violations.length) throw new ValidationError(violations);
      return results;
    });
    return {
      inviteMode,
      changes: changes.map((c, i) => ({ ...c, result: outcomes[i] })),
    };
  }

  /** null: not in the team and not invited. */
  private async applyToTeam(
    em: EntityManager,
    principal: Principal,
    teamId: string,
    email: string,
    permissions: WorkspacePermission[],
    inviteMode: boolean,
  ): Promise<Outcome | null> {
    const memberId = await this.members.memberByEmail(em, teamId, email);
    if (memberId) {
      await this.invitations.applyPermissions(em, teamId, memberId, permissions);
      return 'updated';
    }
    const pending = await this.members.pendingInTeam(em, teamId, email);
    if (pending) {
      const changed = new Set(permissions.map((p) => p.workspaceId));
      const kept = pending.invited_permissions.filter((p) => !changed.has(p.workspaceId));
      const granted = permissions.filter((p) => p.accessLevel !== null);
      await this.members.setInvitedPermissions(em, pending.id, [...kept, ...granted]);
      return 'updated';
    }
    if (!inviteMode) return null;
    // An invitation takes a seat of the team's plan, as on POST /team_members.
    await this.modules
      .get(EntitlementsGuard, { strict: false })
      .assertAvailable(em, teamId, 'users', 'changes');
    await this.invitations.invite(em, principal, teamId, email, 'member', permissions);
    return 'invited';
  }
}
