import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DataProvider } from '../hydra/collection/data-provider';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { SqlQuery } from '../hydra/query/sql-query';
import { changedFields } from '../shipments/shipment-changes';
import type { RECORD_CHANGE_AGGREGATES, RecordChangeEventType } from './event-types';
import { recordEvents } from './outbox';

export type ChangeAggregate = (typeof RECORD_CHANGE_AGGREGATES)[number];

/** A record as the API shows it (JSON-LD members), with the workspace its events belong to. */
export interface RecordSnapshot {
  workspaceId: string;
  representation: Record<string, unknown>;
}

/**
 * Payload of `order.*`, `order_item.*` and `shipment_item.*` events: the record as
 * `GET /<collection>/{id}` answers in JSON-LD (`@id`, `@type` and its members; as it was, for
 * a delete) and for an update the names of the properties the write changed
 * (`changedFields`). Webhook workflows in the reference's form receive them
 * (src/webhooks/reference-webhook-body.ts).
 */
@Injectable()
export class RecordChangeEvents {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
  ) {}

  /** The record read on the write's transaction, without tenancy (the write checked access). */
  async snapshot(em: EntityManager, target: Function, id: string): Promise<RecordSnapshot | null> {
    const resource = this.registry.get(target);
    const query = new SqlQuery(resource.table, 't');
    const select = this.data.reader.select(resource, query);
    query.andWhere(`t.id = ${query.param(id)}::uuid`);
    const rows: Array<Record<string, unknown>> = await em.query(
      `SELECT ${select}, t.workspace_id AS event_workspace_id ${query.fromClause()}${query.whereClause()}`,
      query.params,
    );
    if (rows.length === 0) return null;
    const record = this.data.reader.reader(resource).map(rows[0]);
    return {
      workspaceId: String(rows[0].event_workspace_id),
      representation: {
        '@id': this.registry.iriOf(target, id),
        '@type': resource.shortName,
        ...(JSON.parse(JSON.stringify(record)) as Record<string, unknown>),
      },
    };
  }

  async created(
    em: EntityManager,
    aggregate: ChangeAggregate,
    target: Function,
    id: string,
  ): Promise<void> {
    const now = await this.snapshot(em, target, id);
    if (now) await this.record(em, `${aggregate}.created`, aggregate, id, now);
  }

  /** Records `<aggregate>.updated` when the write changed anything the API shows. */
  async updated(
    em: EntityManager,
    aggregate: ChangeAggregate,
    target: Function,
    id: string,
    before: RecordSnapshot | null,
  ): Promise<void> {
    const now = await this.snapshot(em, target, id);
    if (!now || !before) return;
    const changed = changedFields(before.representation, now.representation);
    if (changed.length === 0) return;
    await this.record(em, `${aggregate}.updated`, aggregate, id, now, changed);
  }

  async deleted(
    em: EntityManager,
    aggregate: ChangeAggregate,
    id: string,
    before: RecordSnapshot | null,
  ): Promise<void> {
    if (before) await this.record(em, `${aggregate}.deleted`, aggregate, id, before);
  }

  private async record(
    em: EntityManager,
    type: RecordChangeEventType,
    aggregate: ChangeAggregate,
    id: string,
    snapshot: RecordSnapshot,
    changed?: string[],
  ): Promise<void> {
    await recordEvents(em, [
      {
        type,
        workspaceId: snapshot.workspaceId,
        aggregateType: aggregate,
        aggregateId: id,
        payload: { ...snapshot.representation, ...(changed ? { changedFields: changed } : {}) },
      },
    ]);
  }
}
