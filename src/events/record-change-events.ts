import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DataProvider } from '../hydra/collection/data-provider';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { SqlQuery } from '../hydra/core/sql-query';
import { changedFields } from '../shipments/shipment-changes';
import {
  INDIRECT_CAUSE,
  type IndirectCause,
  type RECORD_CHANGE_AGGREGATES,
  type RecordChangeEventType,
} from './event-types';
import { updatesSince, watchRecords } from './indirect-changes';
import { recordEvents, type OutboxEvent } from './outbox';
import { query as queryRows } from '../database/query';

/** What a snapshot's row carries beside the record: its id and its events' workspace. */
const EVENT_COLUMNS = 't.id AS event_record_id, t.workspace_id AS event_workspace_id';

export type ChangeAggregate = (typeof RECORD_CHANGE_AGGREGATES)[number];

/** A record as the API shows it (JSON-LD members), with the workspace its events belong to. */
export interface RecordSnapshot {
  workspaceId: string;
  representation: Record<string, unknown>;
}

/** Records another record's write is about to change, as they were before it (by id). */
export type RecordsBefore = Map<string, RecordSnapshot>;

/**
 * Payload of `order.*`, `order_item.*` and `shipment_item.*` events: the record as
 * `GET /<collection>/{id}` answers in JSON-LD (`@id`, `@type` and its members; as it was, for
 * a delete) and for an update the names of the properties the write changed
 * (`changedFields`) and, when another record's write made it (an order's links or
 * fulfilment changed by a shipment's write), its `cause`. Webhook workflows in the
 * reference's form receive them (src/webhooks/reference-webhook-body.ts).
 */
@Injectable()
export class RecordChangeEvents {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
  ) {}

  /** The record read on the write's transaction, without tenancy (the write checked access). */
  async snapshot(em: EntityManager, target: Function, id: string): Promise<RecordSnapshot | null> {
    const [snapshot] = await this.read(em, target, `= $1::uuid`, id);
    return snapshot?.[1] ?? null;
  }

  /**
   * Before another record's write changes these records (an order's links or fulfilment):
   * their snapshots, read in one statement (`id = ANY($1)`). Records whose changes an
   * enclosing write announces itself (announcedByCaller) are left out; none left, nothing is
   * read.
   */
  async watch(
    em: EntityManager,
    aggregate: 'order',
    target: Function,
    ids: Iterable<string | null | undefined>,
  ): Promise<RecordsBefore> {
    return watchRecords(em, aggregate, ids, (wanted) => this.readMany(em, target, wanted));
  }

  /**
   * After that write: `<aggregate>.updated` with `cause` for each watched record whose
   * representation changed (read again in one statement, recorded in one).
   */
  async indirectlyUpdated(
    em: EntityManager,
    aggregate: 'order',
    target: Function,
    before: RecordsBefore,
    cause: IndirectCause,
  ): Promise<void> {
    const updates = await updatesSince(before, (ids) => this.readMany(em, target, ids));
    await recordEvents(
      em,
      updates.map(({ id, now, changed }) =>
        this.event(`${aggregate}.updated`, aggregate, id, now, changed, cause),
      ),
    );
  }

  /** Records read in one statement, without tenancy, by id (missing ones left out). */
  async snapshots(
    em: EntityManager,
    target: Function,
    ids: readonly string[],
  ): Promise<Map<string, RecordSnapshot>> {
    return ids.length === 0 ? new Map() : new Map(await this.readMany(em, target, [...ids]));
  }

  private readMany(em: EntityManager, target: Function, ids: string[]) {
    return this.read(em, target, `= ANY($1::uuid[])`, ids);
  }

  /** Records whose id matches `condition` (on `$1`, the value), by id, in id order. */
  private async read(
    em: EntityManager,
    target: Function,
    condition: string,
    value: string | string[],
  ): Promise<Array<[string, RecordSnapshot]>> {
    const query = new SqlQuery(this.registry.get(target).table, 't');
    query.param(value);
    const select = this.selectList(target, query);
    query.andWhere(`t.id ${condition}`);
    // The select list and FROM the Hydra layer generates from the resource's declaration.
    const rows = await queryRows(
      em,
      `SELECT ${select} ${query.fromClause()}${query.whereClause()} ORDER BY t.id`,
      query.params,
    );
    return this.snapshotsOf(target, rows);
  }

  /**
   * What a statement inserting records reads for their events, over its new rows (`source`,
   * the name of its INSERT ... RETURNING *): a select list over them as `t` and its FROM.
   * It takes no parameters; `snapshotsOf` maps the rows it read.
   */
  newRecordsRead(target: Function, source: string): { select: string; from: string } {
    const { select, from } = this.data.reader.selectOverNew(this.registry.get(target), source);
    return { select: `${select}, ${EVENT_COLUMNS}`, from };
  }

  /** Rows read with `selectList` (or `newRecordsRead`), as snapshots by id. */
  snapshotsOf(
    target: Function,
    rows: readonly Record<string, unknown>[],
  ): Array<[string, RecordSnapshot]> {
    const resource = this.registry.get(target);
    const reader = this.data.reader.reader(resource);
    return rows.map((row) => {
      const id = String(row.event_record_id);
      const record = reader.map(row);
      return [
        id,
        {
          workspaceId: String(row.event_workspace_id),
          representation: {
            '@id': this.registry.iriOf(target, id),
            '@type': resource.shortName,
            ...(JSON.parse(JSON.stringify(record)) as Record<string, unknown>),
          },
        },
      ];
    });
  }

  /** The select list of a snapshot over `query`'s table as `t`, with the event's columns. */
  private selectList(target: Function, query: SqlQuery): string {
    return `${this.data.reader.select(this.registry.get(target), query)}, ${EVENT_COLUMNS}`;
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

  /**
   * `created` for several records written together (a batch), read in one statement and
   * recorded in the order of `ids`, as one `created` after each would.
   */
  async createdMany(
    em: EntityManager,
    aggregate: ChangeAggregate,
    target: Function,
    ids: readonly string[],
    /** Their snapshots, when the statement that inserted them read them (newRecordsRead). */
    read?: ReadonlyMap<string, RecordSnapshot>,
  ): Promise<void> {
    if (ids.length === 0) return;
    const now = read ?? new Map(await this.readMany(em, target, [...ids]));
    await recordEvents(
      em,
      ids.flatMap((id) => {
        const snapshot = now.get(id);
        return snapshot ? [this.event(`${aggregate}.created`, aggregate, id, snapshot)] : [];
      }),
    );
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
    await recordEvents(em, [this.event(type, aggregate, id, snapshot, changed)]);
  }

  /**
   * An event of a record as a write that computed its snapshot itself records it (a batch):
   * `changed` for an update, and its `cause` when another record's write made it.
   */
  event(
    type: RecordChangeEventType,
    aggregate: ChangeAggregate,
    id: string,
    snapshot: RecordSnapshot,
    changed?: string[],
    cause?: IndirectCause,
  ): OutboxEvent {
    return {
      type,
      workspaceId: snapshot.workspaceId,
      aggregateType: aggregate,
      aggregateId: id,
      payload: {
        ...snapshot.representation,
        ...(changed ? { changedFields: changed } : {}),
        ...(cause ? { [INDIRECT_CAUSE]: cause } : {}),
      },
    };
  }
}
