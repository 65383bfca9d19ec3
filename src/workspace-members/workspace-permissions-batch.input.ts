import { Transform, Type } from 'class-transformer';
import { Allow, ValidateNested, isEmail } from 'class-validator';
import { ViolationCodes } from '../common/errors/api-errors';
import { Assert, NotBlank } from '../hydra/validation/constraints';
import { Documented } from '../hydra/validation/documented';
import { Typed } from '../hydra/validation/input-types';

/** One workspace's access in a change (documented; read leniently by readPermissions). */
export class WorkspacePermissionInput {
  @Documented({ type: 'string', required: true, description: 'A workspace id or IRI.' })
  workspaceId?: unknown;
  @Documented({
    type: 'string',
    nullable: true,
    description: '`full` or `read` grants; null or `none` revokes.',
  })
  accessLevel?: unknown;
}

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
  @Allow()
  @Documented({ type: 'array', of: () => WorkspacePermissionInput })
  permissions?: unknown;
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
