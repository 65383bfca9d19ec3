import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventTypes, INDIRECT_CAUSE, type IndirectCause } from '../events/event-types';
import { announcedElsewhere, updatesSince, watchRecords } from '../events/indirect-changes';
import { recordEvents, type OutboxEvent } from '../events/outbox';
import { DataProvider } from '../hydra/collection/data-provider';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { SqlQuery } from '../hydra/core/sql-query';
import type { ApiRecord } from '../hydra/core/api-record';
import { changedFields } from './shipment-changes';
import { Shipment } from './shipment.entity';
import { NEW_SHIPMENT, type NewShipmentRead } from './shipment-store';
import { query as queryRows } from '../database/query';

/**
 * Payload of `shipment.created`, `shipment.updated` and `shipment.deleted`: the shipment as
 * `GET /shipments/{id}` answers in application/json (after the change; as it was for a
 * delete), its IRI under `shipment`, and for an update the names of the changed properties
 * and, when another record's write made it, its `cause` (INDIRECT_CAUSE).
 */
/** What a snapshot's row carries beside the record: its events' workspace. */
const EVENT_WORKSPACE = 't.workspace_id AS event_workspace_id';

export type ShipmentChangePayload = Record<string, unknown> & {
  shipment: string;
  changedFields?: string[];
  cause?: IndirectCause;
};

/** Shipments another record's write is about to change, as they were before it (by id). */
export type ShipmentsBefore = Map<string, ShipmentSnapshot>;

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
    const { query, select } = this.snapshotQuery();
    query.andWhere(`t.id = ${query.param(id)}::uuid`);
    const rows = await queryRows(
      em,
      `SELECT ${select} ${query.fromClause()}${query.whereClause()}`,
      query.params,
    );
    return rows.length === 0 ? null : this.toSnapshot(rows[0]);
  }

  /**
   * Before another record's write changes these shipments (links, `orderNumbers`, items): their
   * snapshots, read in one statement. Shipments whose changes an enclosing write announces
   * itself (announcedByCaller) are left out; none left, nothing is read.
   */
  async watch(em: EntityManager, ids: Iterable<string>): Promise<ShipmentsBefore> {
    return watchRecords(em, 'shipment', ids, (wanted) => this.snapshotsById(em, wanted));
  }

  /**
   * After that write: `shipment.updated` with `cause` for each watched shipment whose
   * representation changed (read again in one statement, recorded in one).
   */
  async indirectlyUpdated(
    em: EntityManager,
    before: ShipmentsBefore,
    cause: IndirectCause,
  ): Promise<void> {
    const updates = await updatesSince(before, (ids) => this.snapshotsById(em, ids));
    await recordEvents(
      em,
      updates.map(({ id, now, changed }) =>
        this.event(EventTypes.shipmentUpdated, id, now, changed, cause),
      ),
    );
  }

  private async snapshotsById(
    em: EntityManager,
    ids: string[],
  ): Promise<Array<[string, ShipmentSnapshot]>> {
    return (await this.snapshots(em, ids)).map((s) => [String(s.record.id), s]);
  }

  /** Snapshots of several shipments (`id = ANY($1)`), in id order; missing ones left out. */
  private async snapshots(em: EntityManager, ids: string[]): Promise<ShipmentSnapshot[]> {
    const { query, select } = this.snapshotQuery();
    query.andWhere(`t.id = ANY(${query.param(ids)}::uuid[])`);
    const rows = await queryRows(
      em,
      `SELECT ${select} ${query.fromClause()}${query.whereClause()} ORDER BY t.id`,
      query.params,
    );
    return rows.map((row) => this.toSnapshot(row));
  }

  /**
   * The snapshot as a new shipment's INSERT reads it over its new row (ShipmentStore.insert;
   * `toSnapshot` of the answer). Only for a row nothing else writes to before
   * `shipment.created` (no order links, no items): the statement reads the links and items as
   * they were before it.
   */
  newShipmentRead(): NewShipmentRead {
    const { select, from } = this.data.reader.selectOverNew(
      this.registry.get(Shipment),
      NEW_SHIPMENT,
    );
    return { select: `${select}, ${EVENT_WORKSPACE}`, from };
  }

  /** The snapshot's select list over the shipment table as `t`. */
  private snapshotQuery(): { query: SqlQuery; select: string } {
    const query = new SqlQuery(this.registry.get(Shipment).table, 't');
    const select = this.data.reader.select(this.registry.get(Shipment), query);
    return { query, select: `${select}, ${EVENT_WORKSPACE}` };
  }

  /** The snapshot from a row its select list read. */
  toSnapshot(row: Record<string, unknown>): ShipmentSnapshot {
    const record = this.data.reader.reader(this.registry.get(Shipment)).map(row);
    return {
      record,
      workspaceId: String(row.event_workspace_id),
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
    /** Read with the INSERT (newShipmentRead) when nothing has written the row since. */
    read?: ShipmentSnapshot,
  ): Promise<ApiRecord | null> {
    const now = read ?? (await this.snapshot(em, id));
    if (!now) return null;
    await recordEvents(em, [...before, this.event(EventTypes.shipmentCreated, id, now)]);
    return now.record;
  }

  /**
   * `created` for several shipments, read in one statement and recorded in one (in the order
   * given); one gone meanwhile is left out.
   */
  async createdMany(
    em: EntityManager,
    created: ReadonlyArray<{ id: string; before: readonly OutboxEvent[] }>,
  ): Promise<void> {
    if (created.length === 0) return;
    const now = new Map(
      await this.snapshotsById(
        em,
        created.map((c) => c.id),
      ),
    );
    await recordEvents(
      em,
      created.flatMap(({ id, before }) => {
        const snapshot = now.get(id);
        return snapshot ? [...before, this.event(EventTypes.shipmentCreated, id, snapshot)] : [];
      }),
    );
  }

  /**
   * Records `shipment.updated` when the write changed anything the API shows, unless an
   * enclosing write announces the shipment's changes itself (a merge's target).
   */
  async updated(em: EntityManager, id: string, before: ShipmentSnapshot): Promise<void> {
    if (announcedElsewhere(em, { aggregate: 'shipment', id })) return;
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
    cause?: IndirectCause,
  ): OutboxEvent {
    const payload: ShipmentChangePayload = {
      shipment: this.registry.iriOf(Shipment, id),
      ...(changed ? { changedFields: changed } : {}),
      ...(cause ? { [INDIRECT_CAUSE]: cause } : {}),
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
