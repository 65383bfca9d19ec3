import { Transform } from 'class-transformer';
import { Allow, isEmail } from 'class-validator';
import { ViolationCodes } from '../common/errors/api-errors';
import { Assert, NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/** `POST /team_members`: an invitation into a team. */
export class TeamMemberInviteInput {
  /** IRI (or id) of the team, one the caller administers. */
  @Typed('string') @NotBlank() team!: string;
  /** The invitee's e-mail address. */
  @Typed('string')
  @NotBlank()
  @Assert(
    'email',
    (v) => typeof v !== 'string' || v === '' || (v.length <= 180 && isEmail(v)),
    'This value is not a valid email address.',
    { code: ViolationCodes.email },
  )
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  invitedEmail!: string;
  /** Invite as a team admin (default false). */
  @Typed('boolean') teamAdmin?: boolean | null;
  /**
   * `[{workspaceId, accessLevel}]`: workspaces of the team (uuid or IRI) with `full` or
   * `read`, granted when the invitation is accepted (read by readPermissions).
   */
  @Allow() permissions?: unknown;
}

/** `PUT /team_members/{id}`: the member's role. */
export class TeamMemberRoleInput {
  /** true: admin; false: member; absent: unchanged. */
  @Typed('boolean') teamAdmin?: boolean | null;
}
