import { Documented } from '../hydra/validation/documented';
import type { ApiRecord } from '../hydra/core/api-record';
import { Team } from '../teams/team.entity';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';

/** The merchant's new account, signed in: the app continues as the user. */
export class StorefrontRegisterResponse {
  @Documented({ type: 'string', required: true }) accessToken!: string;
  @Documented({ type: 'string', nullable: true, required: true }) refreshToken!: string | null;
  @Documented({ of: () => User, required: true }) user!: ApiRecord;
  @Documented({ of: () => Team, required: true }) team!: ApiRecord;
  @Documented({ of: () => Workspace, required: true }) workspace!: ApiRecord;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'Always null: links are recorded apart.',
  })
  workflowId!: null;
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
