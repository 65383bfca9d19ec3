import { Transform, Type } from 'class-transformer';
import { Allow, ValidateNested, isEmail } from 'class-validator';
import { ViolationCodes } from '../common/errors/api-errors';
import { Assert, NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/** One person's changes: `permissions: [{workspaceId, accessLevel}]` (read by readPermissions). */
export class PermissionChangeInput {
  /** The team member's (or, in inviteMode, the invitee's) e-mail address. */
  @Typed('string')
  @NotBlank()
  @Assert(
    'email',
    (v) => typeof v !== 'string' || v === '' || (v.length <= 180 && isEmail(v)),
    'This value is not a valid email address.',
    { code: ViolationCodes.email },
  )
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  email!: string;
  /**
   * `[{workspaceId, accessLevel}]`: a workspace id or IRI, and `full`, `read`, or null/"none"
   * to revoke.
   */
  @Allow() permissions?: unknown;
}

/** `POST /workspace_permissions_batch`. */
export class WorkspacePermissionsBatchInput {
  /** Invite addresses that are not in the workspace's team (default false). */
  @Typed('boolean') inviteMode?: boolean | null;
  @Typed('object', { each: true })
  @ValidateNested({ each: true })
  @Type(() => PermissionChangeInput)
  changes?: PermissionChangeInput[] | null;
}
