import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { DataProvider } from '../hydra/collection/data-provider';
import { ValidationError, ViolationCodes, type Violation } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { Status } from './status.entity';
import {
  StatusRow,
  countStatusReferences,
  loadStatus,
  migrateStatusReferences,
} from './status-references';
import type {
  CheckStatusReferencesInput,
  MigrateStatusReferencesInput,
} from './status-references.input';

/**
 * How many records use a status, and moving them to another status of the same workspace and
 * entity (so the first can be deleted).
 */
@Injectable()
export class StatusReferencesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly data: DataProvider,
    private readonly registry: ResourceRegistry,
  ) {}

  async count(principal: Principal, input: CheckStatusReferencesInput): Promise<number> {
    const status = await this.statusFrom(input, 'statusId', principal, this.dataSource.manager);
    return countStatusReferences(this.dataSource.manager, status);
  }

  migrate(principal: Principal, input: MigrateStatusReferencesInput): Promise<number> {
    return this.dataSource.transaction(async (em: EntityManager) => {
      const from = await this.statusFrom(input, 'fromStatusId', principal, em);
      const to = await this.statusFrom(input, 'toStatusId', principal, em);
      const violations: Violation[] = [];
      if (to.workspaceId !== from.workspaceId || to.entity !== from.entity) {
        violations.push({
          propertyPath: 'toStatusId',
          message: 'The target status must be a status of the same workspace and entity.',
          code: ViolationCodes.invalid,
        });
      } else if (to.id === from.id) {
        violations.push({
          propertyPath: 'toStatusId',
          message: 'The target status must differ from the source status.',
          code: ViolationCodes.invalid,
        });
      }
      if (violations.length) throw new ValidationError(violations);
      // Lock both statuses so neither is deleted half-way through the move.
      await em.query('SELECT id FROM status WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [
        [from.id, to.id],
      ]);
      return migrateStatusReferences(em, from, to);
    });
  }

  /** The status named by `field`, visible to the caller and in `workspaceId` when given. */
  private async statusFrom<F extends string>(
    input: { workspaceId?: string | null } & Record<F, string>,
    field: F,
    principal: Principal,
    em: EntityManager,
  ): Promise<StatusRow> {
    const raw = input[field];
    const id = identifierFrom(raw);
    const status =
      id && (await this.data.visible(this.registry.get(Status), principal, id, em))
        ? await loadStatus(em, id)
        : null;
    if (!status) {
      throw ValidationError.of(field, `Item not found for "${raw}".`, ViolationCodes.invalid);
    }
    const workspace = input.workspaceId;
    if (workspace !== undefined && workspace !== null && workspace !== '') {
      if (identifierFrom(workspace) !== status.workspaceId) {
        throw ValidationError.of(
          field,
          'The status does not belong to the given workspace.',
          ViolationCodes.invalid,
        );
      }
    }
    return status;
  }
}
