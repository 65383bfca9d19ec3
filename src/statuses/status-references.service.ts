import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { DataProvider } from '../hydra/collection/data-provider';
import { ValidationError, ViolationCodes, type Violation } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { OrderStore } from '../orders/order-store';
import { ShipmentBatchStore } from '../shipments/shipment-batch-store';
import type { StatusHolderStore } from './status-references';
import { StatusStore, type StatusRow } from './status-store';
import { Status, type StatusEntity } from './status.entity';
import type {
  CheckStatusReferencesInput,
  MigrateStatusReferencesInput,
} from './status-references.input';

/**
 * How many records use a status, and moving them to another status of the same workspace and
 * entity (so the first can be deleted). The records are counted and moved by their owners'
 * stores.
 */
@Injectable()
export class StatusReferencesService {
  private readonly holders: Record<StatusEntity, StatusHolderStore>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly data: DataProvider,
    private readonly registry: ResourceRegistry,
    private readonly statuses: StatusStore,
    shipments: ShipmentBatchStore,
    orders: OrderStore,
  ) {
    this.holders = { shipments, orders };
  }

  /** How many records of its workspace use the status. */
  countOf(em: EntityManager, status: StatusRow): Promise<number> {
    return this.holders[status.entity].countWithStatus(em, status.id, status.workspaceId);
  }

  async count(principal: Principal, input: CheckStatusReferencesInput): Promise<number> {
    const em = this.dataSource.manager;
    return this.countOf(em, await this.statusFrom(input, 'statusId', principal, em));
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
      await this.statuses.lock(em, [from.id, to.id]);
      return this.holders[from.entity].moveStatus(em, from.id, to.id, from.workspaceId);
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
        ? await this.statuses.byId(em, id)
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
