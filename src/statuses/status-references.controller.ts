import { Controller } from '@nestjs/common';
import type { TargetLocator } from '../access/access-target';
import type { Principal } from '../access/principal';
import { Action } from '../hydra/actions/action.decorator';
import { Status } from './status.entity';
import {
  CheckStatusReferencesInput,
  MigrateStatusReferencesInput,
} from './status-references.input';
import { StatusReferencesService } from './status-references.service';

/** Moving references writes the workspace of both statuses (404 when one is not visible). */
const migratedWorkspace: TargetLocator = ({ input, targets }) =>
  targets.ownersOf(Status, [String(input.fromStatusId), String(input.toStatusId)], 'workspace');

/** `POST /statuses/check-references` and `/statuses/migrate-references` (ids or IRIs). */
@Controller()
export class StatusReferencesController {
  constructor(private readonly references: StatusReferencesService) {}

  @Action({
    method: 'POST',
    path: '/statuses/check-references',
    summary: 'Counts the records that use a status.',
    description:
      'Answers `{refsCount}`: how many shipments or orders have the status `statusId` (id or IRI). Any member who sees the status may ask. 422 at `statusId` when it is blank, not a string, not a status the caller sees ("Item not found"), or not of `workspaceId` when that is given.',
    input: CheckStatusReferencesInput,
    output: {
      json: { type: 'object', properties: { refsCount: { type: 'integer', minimum: 0 } } },
    },
    access: 'workspace:read',
  })
  async check(input: CheckStatusReferencesInput, principal: Principal) {
    return { refsCount: await this.references.count(principal, input) };
  }

  @Action({
    method: 'POST',
    path: '/statuses/migrate-references',
    summary: 'Moves every record from one status to another.',
    description:
      'Gives the records of status `fromStatusId` the status `toStatusId` (ids or IRIs; same workspace and entity, not the same status), so the first can be deleted; answers `{updatedRefsCount}`. Needs write access to the statuses\u2019 workspace (read-only members: 403); a status the caller does not see is 404. 422 for a blank or non-string id, a target of another workspace or entity, the same status twice, or statuses outside `workspaceId` when given.',
    input: MigrateStatusReferencesInput,
    output: {
      json: { type: 'object', properties: { updatedRefsCount: { type: 'integer', minimum: 0 } } },
    },
    access: 'workspace:write',
    workspace: migratedWorkspace,
  })
  async migrate(input: MigrateStatusReferencesInput, principal: Principal) {
    return { updatedRefsCount: await this.references.migrate(principal, input) };
  }
}
