import { Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { withDeferredEvents } from '../events/outbox';
import { HydraApi } from '../hydra/controller/hydra-api';
import {
  NotFoundError,
  ValidationError,
  ViolationCodes,
  type Violation,
} from '../common/errors/api-errors';
import type { ResourceHooks } from '../hydra/core/resource-hooks';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { StatusStore } from '../statuses/status-store';
import type { BatchEntity, BatchRecordStore, StatusBatchStore } from './batch-entities';
import type { BatchRequest, StatusSpec } from './batch-request';
import type { SqlRunner } from '../database/query';

export interface ChangeStatusResult {
  entity: string;
  /** How many records changed status. */
  count: number;
  /** Records that changed, in the order given. */
  ids: string[];
  /** Records that already had the status (nothing to change). */
  unchangedIds: string[];
  /** IRIs of the statuses assigned (one per workspace involved). */
  statuses: string[];
}

export interface DeleteRecordsResult {
  entity: string;
  count: number;
  ids: string[];
}

/**
 * change_status_batch and delete_records_batch: all or nothing. Every id must be a record
 * of the caller's workspaces (404 otherwise, like any foreign record) and, when a workspace
 * is given, of that workspace (422); the status must exist for every record (422). Only
 * then does anything change, in one transaction with the records locked (in id order, so
 * concurrent batches cannot deadlock).
 */
@Injectable()
export class BatchOperations {
  constructor(
    private readonly api: HydraApi,
    private readonly dataSource: DataSource,
    private readonly writer: ResourceWriter,
    private readonly moduleRef: ModuleRef,
    private readonly statusStore: StatusStore,
  ) {}

  /** The owner module's store of a kind of record (provided by that module). */
  private store<S extends BatchRecordStore>(type: Type<S>): S {
    return this.moduleRef.get(type, { strict: false });
  }

  /**
   * The records' workspaces (id -> workspace id), checked as described above; locked when
   * `lock` (inside a transaction).
   */
  async records(
    runner: SqlRunner,
    principal: Principal,
    request: BatchRequest,
    workspaceId: string | undefined,
    lock = false,
  ): Promise<Map<string, string>> {
    const rows = await this.store(request.entity.store).records(
      runner,
      request.ids,
      principal.workspaceIds,
      lock,
    );
    if (rows.length !== request.ids.length) throw new NotFoundError();
    const workspaces = new Map(rows.map((r) => [r.id, r.workspaceId]));
    if (workspaceId) {
      const violations: Violation[] = [];
      request.ids.forEach((id, i) => {
        if (workspaces.get(id) !== workspaceId) {
          violations.push({
            propertyPath: `ids[${i}]`,
            message: 'The record does not belong to the given workspace.',
            code: ViolationCodes.invalid,
          });
        }
      });
      if (violations.length) throw new ValidationError(violations);
    }
    return workspaces;
  }

  /**
   * The status each workspace's records get (workspace id -> status id). A status given by
   * id must be one of the caller's, of the entity, in the workspace of every record; a code
   * must name a status of the entity in each workspace involved. Statuses are not created
   * here (unlike `{code}` objects on a record write): a typo in a batch over thousands of
   * records should fail, not invent a status. The rows are share-locked so they cannot be
   * deleted before the change commits.
   */
  async statuses(
    runner: SqlRunner,
    principal: Principal,
    entity: BatchEntity,
    spec: StatusSpec,
    workspaces: string[],
    lock = false,
  ): Promise<Map<string, string>> {
    const statusEntity = entity.status!.entity;
    const out = new Map<string, string>();
    if ('id' in spec) {
      const status = await this.statusStore.inWorkspaces(
        runner,
        spec.id,
        principal.workspaceIds,
        lock,
      );
      if (!status) {
        throw ValidationError.of(
          'statusId',
          `Item not found for "/statuses/${spec.id}".`,
          ViolationCodes.invalid,
        );
      }
      if (status.entity !== statusEntity || workspaces.some((w) => w !== status.workspaceId)) {
        throw ValidationError.of(
          'statusId',
          `The status must be a status of ${statusEntity} of the workspace of every record.`,
          ViolationCodes.invalid,
        );
      }
      for (const w of workspaces) out.set(w, status.id);
      return out;
    }
    const rows = await this.statusStore.byCode(runner, workspaces, statusEntity, spec.code, lock);
    for (const r of rows) out.set(r.workspaceId, r.id);
    const missing = workspaces.filter((w) => !out.has(w));
    if (missing.length) {
      throw new ValidationError(
        missing.map((w) => ({
          propertyPath: 'status',
          message: `No status of ${statusEntity} has the code "${spec.code}" in workspace /workspaces/${w}.`,
          code: ViolationCodes.invalid,
        })),
      );
    }
    return out;
  }

  /** Everything change_status_batch checks, without changing anything (for the async form). */
  async checkChangeStatus(
    principal: Principal,
    request: BatchRequest,
    spec: StatusSpec,
    workspaceId: string | undefined,
  ): Promise<Map<string, string>> {
    const db = this.dataSource.manager;
    const workspaces = await this.records(db, principal, request, workspaceId);
    return this.statuses(db, principal, request.entity, spec, [...new Set(workspaces.values())]);
  }

  /** Assigns the status to every record, or to none. Runs in `em` when given. */
  async changeStatus(
    principal: Principal,
    request: BatchRequest,
    spec: StatusSpec,
    workspaceId: string | undefined,
    em?: EntityManager,
  ): Promise<ChangeStatusResult> {
    if (!em) {
      return this.dataSource.transaction((tx) =>
        this.changeStatus(principal, request, spec, workspaceId, tx),
      );
    }
    const { entity } = request;
    const workspaces = await this.records(em, principal, request, workspaceId, true);
    const byWorkspace = await this.statuses(
      em,
      principal,
      entity,
      spec,
      [...new Set(workspaces.values())],
      true,
    );
    const changed = await this.store<StatusBatchStore>(entity.status!.store).assignStatus(
      em,
      request.ids,
      byWorkspace,
    );
    const changedIds = new Set(changed);
    const ids = request.ids.filter((id) => changedIds.has(id));
    return {
      entity: entity.name,
      count: ids.length,
      ids,
      unchangedIds: request.ids.filter((id) => !changedIds.has(id)),
      statuses: [...new Set(byWorkspace.values())].map((id) => `/statuses/${id}`),
    };
  }

  /**
   * Deletes every record, or none, each through the rules of its own DELETE route (the
   * resource's hooks: items go with their shipment or order item, order fulfilment and
   * untracked-shipment counts are recomputed), in one transaction.
   */
  async deleteRecords(
    principal: Principal,
    request: BatchRequest,
    workspaceId: string | undefined,
  ): Promise<DeleteRecordsResult> {
    const { entity } = request;
    const resource = this.api.resource(entity.target);
    const hooks = this.moduleRef.get<ResourceHooks>(entity.hooks, { strict: false });
    await this.dataSource.transaction(async (em) => {
      await this.records(em, principal, request, workspaceId, true);
      // One transaction, so one event per record it changed: two shipments of an order
      // deleted together update the order once (coalesceEvents).
      await withDeferredEvents(em, async () => {
        for (const id of [...request.ids].sort()) {
          const record = await this.writer.load(resource, id, principal, em, 'delete');
          await this.writer.removeWithin(em, resource, record, principal, hooks);
        }
      });
    });
    return { entity: entity.name, count: request.ids.length, ids: request.ids };
  }
}
