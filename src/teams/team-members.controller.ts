import { Inject } from '@nestjs/common';
import { ownerOfParam, visibleFromInput } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { ResourceController } from '../hydra/controller/resource-controller';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { TeamMember } from './team-member.entity';
import { TeamMemberInviteInput, TeamMemberRoleInput } from './team-member.input';
import { TeamMembersService } from './team-members.service';
import { Team } from './team.entity';

/**
 * Team members. Reads come from the declaration (members of the caller's teams). Writes
 * follow the roles: only owners and admins invite, change roles and remove others; a
 * member may leave; an owner is never removed by someone else, and the last owner cannot
 * leave.
 */
export class TeamMembersController extends ResourceController(TeamMember) {
  @Inject(TeamMembersService) private readonly members!: TeamMembersService;

  @Action({
    method: 'POST',
    path: '/team_members',
    summary: 'Invites someone into a team by e-mail.',
    description:
      'Creates (or renews) a pending membership of `invitedEmail` in `team`, as admin when `teamAdmin` is true, with workspace `permissions` granted on acceptance, and mails the invitation code. The invitation takes a seat of the team’s plan.',
    input: TeamMemberInviteInput,
    output: { item: TeamMember },
    status: 201,
    access: 'team:admin',
    team: visibleFromInput(Team, 'team'),
  })
  invite(input: TeamMemberInviteInput, principal: Principal, context: ActionContext<'team?'>) {
    const teamId = context.teamId;
    if (!teamId) {
      throw ValidationError.of(
        'team',
        `Item not found for "${input.team}".`,
        ViolationCodes.invalid,
      );
    }
    return this.members.invite(
      principal,
      teamId,
      input.invitedEmail,
      input.teamAdmin ?? false,
      input.permissions,
    );
  }

  @Action({
    method: 'PUT',
    path: '/team_members/:id',
    summary: 'Promotes a team member to admin or demotes them.',
    description:
      'Sets the role of the membership from `teamAdmin` (true: admin, false: member) and answers it. An owner’s role never changes.',
    input: TeamMemberRoleInput,
    output: { item: TeamMember },
    access: 'team:admin',
    team: ownerOfParam(TeamMember, 'id', 'team'),
  })
  async replace(input: TeamMemberRoleInput, _principal: Principal, context: ActionContext) {
    await this.members.changeRole(context.params.id, input.teamAdmin);
    return context.params.id;
  }

  @Action({
    method: 'DELETE',
    path: '/team_members/:id',
    summary: 'Removes a team member, cancels an invitation, or leaves the team.',
    description:
      'Deletes the membership and the member’s access to the team’s workspaces. Any member may leave; removing someone else needs the owner or admin role.',
    output: 'none',
    access: 'team:member',
    // Removing members (or leaving) is managing the team: not for third-party applications.
    delegated: false,
    team: ownerOfParam(TeamMember, 'id', 'team'),
  })
  async remove(_input: unknown, principal: Principal, context: ActionContext) {
    await this.members.remove(principal, context.params.id);
  }

  @Action({
    method: 'POST',
    path: '/team_members/:id/resend_invite',
    summary: 'Sends a pending invitation again, with a new code.',
    description:
      'Mails a new invitation code to the invited address; the previous code stops working. Takes no body.',
    output: { item: TeamMember },
    status: 201,
    access: 'team:admin',
    team: ownerOfParam(TeamMember, 'id', 'team'),
  })
  async resendInvite(_input: unknown, principal: Principal, context: ActionContext) {
    await this.members.resendInvite(principal, context.params.id);
    return context.params.id;
  }
}
