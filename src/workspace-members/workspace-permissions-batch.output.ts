import { Documented } from '../hydra/validation/documented';

/** A workspace's access in a change: `full`, `read`, or null (revoked). */
export class WorkspacePermissionOutput {
  @Documented({ type: 'string', format: 'uuid', required: true }) workspaceId!: string;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: '`full`, `read`, or null (revoked).',
  })
  accessLevel!: string | null;
}

/** One person's change as applied. */
export class PermissionChangeOutput {
  @Documented({ type: 'string', required: true }) email!: string;
  @Documented({ type: 'array', of: () => WorkspacePermissionOutput, required: true })
  permissions!: WorkspacePermissionOutput[];
  @Documented({
    type: 'string',
    enum: ['updated', 'invited'],
    required: true,
    description: '`invited`: not in the team before.',
  })
  result!: 'updated' | 'invited';
}

/** What `POST /workspace_permissions_batch` applied (all of it, or nothing: a 422). */
export class WorkspacePermissionsBatchResult {
  @Documented({ type: 'boolean', required: true }) inviteMode!: boolean;
  @Documented({ type: 'array', of: () => PermissionChangeOutput, required: true })
  changes!: PermissionChangeOutput[];
}
