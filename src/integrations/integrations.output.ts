import { Documented } from '../hydra/validation/documented';
import type { ApiRecord } from '../hydra/core/api-record';
import { Team } from '../teams/team.entity';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';

/** The merchant's new account, signed in: the app continues as the user. */
export class StorefrontRegisterResponse {
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'Null unless the address is the shop’s own and new: the others verify it first.',
  })
  accessToken!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) refreshToken!: string | null;
  @Documented({
    of: () => User,
    required: true,
    description: 'Before the address is verified only `@type`, `email` and `emailVerified`.',
  })
  user!: ApiRecord;
  @Documented({ of: () => Team, nullable: true, required: true }) team!: ApiRecord | null;
  @Documented({ of: () => Workspace, nullable: true, required: true })
  workspace!: ApiRecord | null;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'Always null: links are recorded apart.',
  })
  workflowId!: null;
  @Documented({
    type: 'string',
    description: 'What happens next, when the address must be verified first (sent by e-mail).',
  })
  message?: string;
}

/** An installation or account linked to a workspace. */
export class IntegrationWorkspaceResponse {
  @Documented({ type: 'string', format: 'uuid', required: true }) teamId!: string;
  @Documented({ type: 'string', format: 'uuid', required: true }) workspaceId!: string;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'Always null: links are recorded in integration_link.',
  })
  workflowId!: null;
}
