import { Delete, HttpCode, Inject, Post, Put, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { ModuleRef } from '@nestjs/core';
import { EntitlementsGuard } from '../billing/entitlements-guard';
import type { Principal } from '../access/principal';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { removeNotesOfDeleted } from '../notes/record-notes';
import { ResourceController } from '../hydra/controller/resource-controller';
import {
  ForbiddenError,
  NotFoundError,
  ValidationError,
  ViolationCodes,
} from '../hydra/errors/api-errors';
import { readBoolean, requireEmail, requireString } from '../security/body-fields';
import { checkPermissionTargets, readPermissions } from '../workspace-members/permissions-input';
import { InvitationsService } from './invitations.service';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';

interface MemberRow {
  id: string;
  team_id: string;
  member_id: string | null;
  role: 'owner' | 'admin' | 'member';
}

/**
 * Team members. Reads come from the declaration (members of the caller's teams). Writes
 * follow the roles: only owners and admins invite, change roles and remove others; a
 * member may leave; an owner is never removed by someone else, and the last owner cannot
 * leave.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
export class TeamMembersController extends ResourceController(TeamMember) {
  declare readonly api: HydraApi;
  @Inject(InvitationsService) private readonly invitations!: InvitationsService;
  @Inject(DataSource) private readonly dataSource!: DataSource;
  @Inject(ModuleRef) private readonly modules!: ModuleRef;

  /**
   * POST /team_members: invites `invitedEmail` into `team` (an IRI of a team the caller
   * administers), as admin when `teamAdmin` is true, with optional workspace access
   * `permissions: [{workspaceId, accessLevel}]`.
   */
  @Post('/team_members')
  @HttpCode(201)
  async invite(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(TeamMember);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const teamIri = requireString(body, 'team');
    const email = requireEmail(body, 'invitedEmail');
    const admin = readBoolean(body, 'teamAdmin') ?? false;
    const permissions = readPermissions(body.permissions, 'permissions');
    const teamId = await this.api.data.resolveReference(
      this.api.resource(Team),
      principal,
      teamIri,
    );
    if (!teamId) {
      throw ValidationError.of('team', `Item not found for "${teamIri}".`, ViolationCodes.invalid);
    }
    if (!principal.adminTeamIds.includes(teamId)) {
      throw new ForbiddenError('Only owners and admins of the team invite members.');
    }
    const result = await this.dataSource.transaction(async (em) => {
      await checkPermissionTargets(em, principal, permissions, 'permissions', teamId);
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
    const record = await this.api.data.get(resource, principal, result.teamMemberId);
    this.api.responder.item(req, res, resource, record, 201);
  }

  /** PUT /team_members/{id} `{teamAdmin}`: owners and admins promote or demote non-owners. */
  @Put('/team_members/:id')
  async replace(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(TeamMember);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const id = routeParam(req, 'id');
    await this.dataSource.transaction(async (em) => {
      const member = await this.load(em, principal, id);
      const body = this.api.body(req);
      const admin = readBoolean(body, 'teamAdmin');
      if (!principal.adminTeamIds.includes(member.team_id)) {
        throw new ForbiddenError('Only owners and admins of the team change roles.');
      }
      if (admin === null) return;
      if (member.role === 'owner') {
        if (admin) return;
        throw ValidationError.of(
          'teamAdmin',
          'The role of a team owner cannot be changed.',
          ViolationCodes.invalid,
        );
      }
      await em.query(`UPDATE team_member SET role = $2 WHERE id = $1`, [
        id,
        admin ? 'admin' : 'member',
      ]);
    });
    const record = await this.api.data.get(resource, principal, id);
    this.api.responder.item(req, res, resource, record);
  }

  /** DELETE /team_members/{id}: removes a member (or cancels an invitation), or leaves. */
  @Delete('/team_members/:id')
  @HttpCode(204)
  async remove(@Req() req: Request, @Res() res: Response): Promise<void> {
    const principal = this.api.requirePrincipal(req);
    const id = routeParam(req, 'id');
    await this.dataSource.transaction(async (em) => {
      const member = await this.load(em, principal, id);
      const self = member.member_id === principal.userId;
      if (!self && !principal.adminTeamIds.includes(member.team_id)) {
        throw new ForbiddenError('Only owners and admins of the team remove members.');
      }
      if (member.role === 'owner') {
        if (!self) throw new ForbiddenError('A team owner cannot be removed.');
        const [{ owners }] = await em.query(
          `SELECT count(*)::int AS owners FROM team_member WHERE team_id = $1 AND role = 'owner' AND member_id IS NOT NULL`,
          [member.team_id],
        );
        if (owners <= 1) {
          throw ValidationError.of(
            'member',
            'The last owner cannot leave the team; delete the team instead.',
            ViolationCodes.invalid,
          );
        }
      }
      if (member.member_id) {
        // Access to the team's workspaces ends with the membership (notes on it go too).
        // DELETE ... RETURNING answers [rows, count] through TypeORM.
        const [gone]: [Array<{ id: string; workspace_id: string }>, number] = await em.query(
          `DELETE FROM workspace_member wm USING workspace w
            WHERE wm.workspace_id = w.id AND w.team_id = $1 AND wm.user_id = $2
            RETURNING wm.id, wm.workspace_id`,
          [member.team_id, member.member_id],
        );
        await removeNotesOfDeleted(em, 'workspace_members', gone);
      }
      await em.query(`DELETE FROM team_member WHERE id = $1`, [id]);
    });
    res.status(204).end();
  }

  /** POST /team_members/{id}/resend_invite: a new invitation code by e-mail. */
  @Post('/team_members/:id/resend_invite')
  @HttpCode(201)
  async resendInvite(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(TeamMember);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const id = routeParam(req, 'id');
    await this.dataSource.transaction(async (em) => {
      const member = await this.load(em, principal, id);
      if (!principal.adminTeamIds.includes(member.team_id)) {
        throw new ForbiddenError('Only owners and admins of the team send invitations.');
      }
      await this.invitations.resend(em, principal.email, id);
    });
    const record = await this.api.data.get(resource, principal, id);
    this.api.responder.item(req, res, resource, record, 201);
  }

  /** The membership, locked, when the caller may see it (a member of its team); else 404. */
  private async load(em: EntityManager, principal: Principal, id: string): Promise<MemberRow> {
    if (!(await this.api.data.visible(this.api.resource(TeamMember), principal, id))) {
      throw new NotFoundError();
    }
    const [row] = await em.query(
      `SELECT id, team_id, member_id, role FROM team_member WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!row) throw new NotFoundError();
    return row;
  }
}
