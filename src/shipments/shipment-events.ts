import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventTypes } from '../events/event-types';
import { recordEvents, type OutboxEvent } from '../events/outbox';
import { DataProvider } from '../hydra/collection/data-provider';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { SqlQuery } from '../hydra/query/sql-query';
import type { ApiRecord } from '../hydra/serialization/record-reader';
import { changedFields } from './shipment-changes';
import { transactionQuery } from '../hydra/query/prepared';
import { Shipment } from './shipment.entity';

/**
 * Payload of `shipment.created`, `shipment.updated` and `shipment.deleted`: the shipment as
 * `GET /shipments/{id}` answers in application/json (after the change; as it was for a
 * delete), its IRI under `shipment`, and for an update the names of the changed properties.
 */
export type ShipmentChangePayload = Record<string, unknown> & {
  shipment: string;
  changedFields?: string[];
};

/** A shipment as the API shows it, with the workspace its events belong to. */
export interface ShipmentSnapshot {
  workspaceId: string;
  representation: Record<string, unknown>;
  /** The record as `GET /shipments/{id}` reads it (before JSON: dates as dates). */
  record: ApiRecord;
}

/**
 * Writes the shipment's lifecycle events to the outbox on the write's own transaction, so
 * they commit or roll back with the change ("events never get lost").
 */
@Injectable()
export class ShipmentEvents {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
  ) {}

  /**
   * The shipment as the API shows it, read on the transaction (so uncommitted changes show),
   * with no tenancy scope: the caller's write has already checked access.
   */
  async snapshot(em: EntityManager, id: string): Promise<ShipmentSnapshot | null> {
    const resource = this.registry.get(Shipment);
    const query = new SqlQuery(resource.table, 't');
    const select = this.data.reader.select(resource, query);
    query.andWhere(`t.id = ${query.param(id)}::uuid`);
    const rows = await transactionQuery(
      em,
      `SELECT ${select}, t.workspace_id AS event_workspace_id ${query.fromClause()}${query.whereClause()}`,
      query.params,
    );
    if (rows.length === 0) return null;
    const record = this.data.reader.reader(resource).map(rows[0]);
    return {
      record,
      workspaceId: String(rows[0].event_workspace_id),
      // As the JSON response carries it (dates as ISO strings).
      representation: JSON.parse(JSON.stringify(record)) as Record<string, unknown>,
    };
  }

  /**
   * Records `shipment.created` after `before` (the status the create's tracking set), in one
   * statement; answers the shipment as read for the payload, which is what GET answers.
   */
  async created(
    em: EntityManager,
    id: string,
    before: readonly OutboxEvent[] = [],
  ): Promise<ApiRecord | null> {
    const now = await this.snapshot(em, id);
    if (!now) return null;
    await recordEvents(em, [...before, this.event(EventTypes.shipmentCreated, id, now)]);
    return now.record;
  }

  /** Records `shipment.updated` when the write changed anything the API shows. */
  async updated(em: EntityManager, id: string, before: ShipmentSnapshot): Promise<void> {
    const now = await this.snapshot(em, id);
    if (!now) return;
    const changed = changedFields(before.representation, now.representation);
    if (changed.length === 0) return;
    await recordEvents(em, [this.event(EventTypes.shipmentUpdated, id, now, changed)]);
  }

  async deleted(em: EntityManager, id: string, before: ShipmentSnapshot): Promise<void> {
    await recordEvents(em, [this.event(EventTypes.shipmentDeleted, id, before)]);
  }

  private event(
    type:
      | typeof EventTypes.shipmentCreated
      | typeof EventTypes.shipmentUpdated
      | typeof EventTypes.shipmentDeleted,
    id: string,
    snapshot: ShipmentSnapshot,
    changed?: string[],
  ): OutboxEvent {
    const payload: ShipmentChangePayload = {
      shipment: this.registry.iriOf(Shipment, id),
      ...(changed ? { changedFields: changed } : {}),
      ...snapshot.representation,
    };
    return {
      type,
      workspaceId: snapshot.workspaceId,
      aggregateType: 'shipment',
      aggregateId: id,
      payload,
    };
  }
}
