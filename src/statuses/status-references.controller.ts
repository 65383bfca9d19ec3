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
import { StatusReferencesCount, StatusReferencesMigrated } from './status-references.output';

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
      'Answers `{refsCount}`: how many shipments or orders have the status `statusId` (id or IRI).',
    input: CheckStatusReferencesInput,
    output: { json: StatusReferencesCount },
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
      'Gives the records of status `fromStatusId` the status `toStatusId` (same workspace and entity), so the first can be deleted. Answers `{updatedRefsCount}`.',
    input: MigrateStatusReferencesInput,
    output: { json: StatusReferencesMigrated },
    access: 'workspace:write',
    workspace: migratedWorkspace,
  })
  async migrate(input: MigrateStatusReferencesInput, principal: Principal) {
    return { updatedRefsCount: await this.references.migrate(principal, input) };
  }
}
