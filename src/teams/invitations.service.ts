import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { hashToken, randomSecret } from '../auth/secret-token';
import { AppConfig } from '../config/app-config';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { link } from '../mail/links';
import { MailDispatcher } from '../mail/mail-dispatcher';
import { removeNotesOfDeleted } from '../notes/record-notes';
import type { TeamRole } from './team-member.entity';

/** How long an invitation code stays valid. */
export const INVITATION_LIFETIME = 14 * 24 * 3600;

export interface WorkspacePermission {
  workspaceId: string;
  /** An access level, or null to revoke. */
  accessLevel: string | null;
}

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
    const [team] = await em.query(`SELECT id, name FROM team WHERE id = $1`, [teamId]);
    // Only the team's own members are told apart (its admins see them anyway).
    const [existing] = await em.query(
      `SELECT m.id FROM team_member m JOIN "user" u ON u.id = m.member_id
        WHERE m.team_id = $1 AND u.email = $2`,
      [teamId, email],
    );
    if (existing) {
      throw ValidationError.of(
        property,
        'This user is already a member of the team.',
        ViolationCodes.unique,
      );
    }
    const code = randomSecret();
    const [pending] = await em.query(
      `INSERT INTO team_member (team_id, invited_email, role, invite_token_hash, invited_at, invited_permissions)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (team_id, invited_email) WHERE member_id IS NULL
       DO UPDATE SET role = EXCLUDED.role, invite_token_hash = EXCLUDED.invite_token_hash,
                     invited_at = EXCLUDED.invited_at, invited_permissions = EXCLUDED.invited_permissions
       RETURNING id`,
      [teamId, email, role, hashToken(code), this.clock.now(), JSON.stringify(grants(permissions))],
    );
    this.sendInvitation(email, team.name, inviter.email, code);
    return { teamMemberId: pending.id };
  }

  /** A new code for a pending invitation (the old one stops working). */
  async resend(em: EntityManager, inviterEmail: string, teamMemberId: string): Promise<void> {
    const [row] = await em.query(
      `SELECT m.invited_email::text AS email, m.member_id, t.name FROM team_member m JOIN team t ON t.id = m.team_id
        WHERE m.id = $1`,
      [teamMemberId],
    );
    if (row.member_id) {
      throw ValidationError.of(
        'invitedEmail',
        'This invitation was already accepted.',
        ViolationCodes.invalid,
      );
    }
    const code = randomSecret();
    await em.query(`UPDATE team_member SET invite_token_hash = $2, invited_at = $3 WHERE id = $1`, [
      teamMemberId,
      hashToken(code),
      this.clock.now(),
    ]);
    this.sendInvitation(row.email, row.name, inviterEmail, code);
  }

  /** The pending, unexpired invitation of `email` with `code`, or null. */
  async find(
    em: EntityManager,
    email: string,
    code: string,
  ): Promise<{ id: string; teamId: string; teamName: string } | null> {
    const [row] = await em.query(
      `SELECT m.id, m.team_id, t.name FROM team_member m JOIN team t ON t.id = m.team_id
        WHERE m.invite_token_hash = $1 AND m.member_id IS NULL AND m.invited_email = $2 AND m.invited_at > $3`,
      [
        hashToken(code),
        email.trim(),
        new Date(this.clock.now().getTime() - INVITATION_LIFETIME * 1000),
      ],
    );
    return row ? { id: row.id, teamId: row.team_id, teamName: row.name } : null;
  }

  /**
   * Accepts every pending invitation of a verified address: the user becomes a member with
   * the invited role and gets the invited workspace access.
   */
  async acceptAll(em: EntityManager, userId: string, email: string): Promise<void> {
    const pending = await em.query(
      `SELECT id, team_id, role, invited_permissions FROM team_member
        WHERE member_id IS NULL AND invited_email = $1 FOR UPDATE`,
      [email],
    );
    for (const invitation of pending) await this.acceptRow(em, invitation, userId);
  }

  /** Accepts one pending invitation (found with its code) for the user of its address. */
  async accept(em: EntityManager, invitationId: string, userId: string): Promise<void> {
    const [invitation] = await em.query(
      `SELECT id, team_id, role, invited_permissions FROM team_member
        WHERE id = $1 AND member_id IS NULL FOR UPDATE`,
      [invitationId],
    );
    if (invitation) await this.acceptRow(em, invitation, userId);
  }

  private async acceptRow(
    em: EntityManager,
    invitation: { id: string; team_id: string; invited_permissions: WorkspacePermission[] | null },
    userId: string,
  ): Promise<void> {
    const [already] = await em.query(
      `SELECT id FROM team_member WHERE team_id = $1 AND member_id = $2`,
      [invitation.team_id, userId],
    );
    if (already) {
      await em.query(`DELETE FROM team_member WHERE id = $1`, [invitation.id]);
    } else {
      await em.query(
        `UPDATE team_member SET member_id = $2, invite_token_hash = NULL, invited_permissions = '[]'::jsonb
          WHERE id = $1`,
        [invitation.id, userId],
      );
    }
    await applyPermissions(em, invitation.team_id, userId, invitation.invited_permissions ?? []);
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

function grants(permissions: WorkspacePermission[]): WorkspacePermission[] {
  return permissions.filter((p) => p.accessLevel !== null);
}

/**
 * Grants (upsert) or revokes (accessLevel null) workspace access of a team member. Only
 * workspaces of that team are touched.
 */
export async function applyPermissions(
  em: EntityManager,
  teamId: string,
  userId: string,
  permissions: WorkspacePermission[],
): Promise<void> {
  for (const p of permissions) {
    if (p.accessLevel === null) {
      // DELETE ... RETURNING answers [rows, count] through TypeORM.
      const [gone]: [Array<{ id: string; workspace_id: string }>, number] = await em.query(
        `DELETE FROM workspace_member wm USING workspace w
          WHERE wm.workspace_id = w.id AND w.team_id = $1 AND wm.workspace_id = $2 AND wm.user_id = $3
          RETURNING wm.id, wm.workspace_id`,
        [teamId, p.workspaceId, userId],
      );
      await removeNotesOfDeleted(em, 'workspace_members', gone);
    } else {
      await em.query(
        `INSERT INTO workspace_member (workspace_id, user_id, access_level)
         SELECT w.id, $3, $4 FROM workspace w WHERE w.id = $2 AND w.team_id = $1
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET access_level = EXCLUDED.access_level`,
        [teamId, p.workspaceId, userId, p.accessLevel],
      );
    }
  }
}
