import { Logger } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { MediaService } from '../media/media.service';
import { WorkspaceDeletion, deletionOrder } from './workspace-deletion';
import type { WorkspaceStore, WorkspaceTable } from './workspace-store';

interface StoredWorkspace {
  scheduled: boolean;
  /** Rows left in each table that references the workspace. */
  rows: Record<string, number>;
}

/** The catalogue of tables referencing workspace(id), as PostgreSQL names them. */
const TABLES: WorkspaceTable[] = [
  { table: 'shipment', column: 'workspace_id', referencedBy: ['shipment_item'] },
  { table: '"order"', column: 'workspace_id', referencedBy: ['shipment_item', 'order_item'] },
  { table: 'order_item', column: 'workspace_id', referencedBy: ['shipment_item'] },
  { table: 'shipment_item', column: 'workspace_id', referencedBy: [] },
];

/** The workspace table (and the rows in it) in memory: what deletion reads and writes. */
class FakeWorkspaces implements Pick<
  WorkspaceStore,
  | 'sizeUpTo'
  | 'scheduleDeletion'
  | 'delete'
  | 'lockNextScheduled'
  | 'touch'
  | 'referencingTables'
  | 'deleteRowsOf'
> {
  workspaces = new Map<string, StoredWorkspace>();
  /** Scheduled workspaces by turn: the one touched last goes last. */
  queue: string[] = [];
  /** Tables whose delete a restricting reference refuses. */
  restricting = new Set<string>();
  deletes: string[] = [];

  add(id: string, rows: Record<string, number>, scheduled = false): void {
    this.workspaces.set(id, { scheduled, rows: { ...rows } });
    if (scheduled) this.queue.push(id);
  }

  async sizeUpTo(_db: unknown, id: string, cap: number) {
    const rows = this.workspaces.get(id)!.rows;
    return Math.min(rows.shipment ?? 0, cap + 1) + Math.min(rows.order ?? 0, cap + 1);
  }
  async scheduleDeletion(_db: unknown, id: string) {
    this.workspaces.get(id)!.scheduled = true;
    this.queue.push(id);
  }
  async delete(_db: unknown, id: string) {
    this.workspaces.delete(id);
    this.queue = this.queue.filter((q) => q !== id);
  }
  async lockNextScheduled() {
    return this.queue[0];
  }
  async touch(_db: unknown, id: string) {
    this.queue = [...this.queue.filter((q) => q !== id), id];
  }
  async referencingTables() {
    return TABLES;
  }
  async deleteRowsOf(
    _db: unknown,
    { table }: { table: string },
    workspaceId: string,
    limit: number,
  ) {
    this.deletes.push(table);
    if (this.restricting.has(table)) throw new Error(`${table} is still referenced`);
    const rows = this.workspaces.get(workspaceId)!.rows;
    const n = Math.min(rows[table] ?? 0, limit);
    rows[table] = (rows[table] ?? 0) - n;
    return n;
  }
}

function setUp(limits = { sync: 10, batch: 5 }) {
  const store = new FakeWorkspaces();
  const em = {} as EntityManager;
  const dataSource = { transaction: (work: (em: EntityManager) => unknown) => work(em) };
  const config = {
    workspaceSyncDeleteLimit: limits.sync,
    workspaceDeleteBatchSize: limits.batch,
    workspaceDeleteIntervalSeconds: 60,
  } as AppConfig;
  const media = { sweepOrphanFiles: jest.fn(async () => 0) };
  const deletion = new WorkspaceDeletion(
    dataSource as unknown as DataSource,
    config,
    {} as SchedulerRegistry,
    media as unknown as MediaService,
    store as unknown as WorkspaceStore,
  );
  return { deletion, store, em, media };
}

beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
beforeAll(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));

describe('WorkspaceDeletion.deleteOrSchedule', () => {
  it('deletes a workspace of up to the limit of shipments + orders at once', async () => {
    const { deletion, store, em } = setUp({ sync: 10, batch: 5 });
    store.add('small', { shipment: 6, order: 4 });
    expect(await deletion.deleteOrSchedule(em, 'small')).toBe('deleted');
    expect(store.workspaces.has('small')).toBe(false);
  });

  it('schedules a larger one: flagged (hidden from every read), rows left to the batches', async () => {
    const { deletion, store, em } = setUp({ sync: 10, batch: 5 });
    store.add('orders', { shipment: 0, order: 11 });
    store.add('mixed', { shipment: 6, order: 5 });
    expect(await deletion.deleteOrSchedule(em, 'orders')).toBe('scheduled');
    expect(await deletion.deleteOrSchedule(em, 'mixed')).toBe('scheduled');
    expect(store.workspaces.get('mixed')).toEqual({
      scheduled: true,
      rows: { shipment: 6, order: 5 },
    });
  });
});

describe('WorkspaceDeletion.runBatch', () => {
  it('has nothing to do without a scheduled workspace', async () => {
    const { deletion, store } = setUp();
    store.add('live', { shipment: 100 });
    expect(await deletion.runBatch()).toBe(false);
    expect(store.deletes).toEqual([]);
  });

  it('deletes up to the batch size per transaction, leaves first, then the workspace', async () => {
    const { deletion, store } = setUp({ sync: 10, batch: 5 });
    store.add('big', { shipment: 3, order: 2, order_item: 2, shipment_item: 4 }, true);
    expect(await deletion.runBatch()).toBe(true);
    // shipment_item (4) then shipment (1 of 3): the budget of 5 is spent.
    expect(store.workspaces.get('big')!.rows).toEqual({
      shipment: 2,
      order: 2,
      order_item: 2,
      shipment_item: 0,
    });
    expect(await deletion.runBatch()).toBe(true);
    expect(await deletion.runBatch()).toBe(true);
    expect(store.workspaces.has('big')).toBe(false);
    expect(await deletion.runBatch()).toBe(false);
  });

  it('a workspace whose batch spent the budget lets the next scheduled one take a turn', async () => {
    const { deletion, store } = setUp({ sync: 10, batch: 5 });
    store.add('first', { shipment: 20 }, true);
    store.add('second', { shipment: 1 }, true);
    await deletion.runBatch();
    expect(store.queue).toEqual(['second', 'first']);
    await deletion.runBatch();
    expect(store.queue).toEqual(['first']);
  });

  it('a table a reference restricts is left to the final cascade; the others go', async () => {
    const { deletion, store } = setUp({ sync: 10, batch: 50 });
    store.add('ws', { shipment: 3, order: 2, shipment_item: 1 }, true);
    store.restricting.add('order');
    expect(await deletion.runBatch()).toBe(true);
    expect(store.deletes).toContain('order');
    expect(store.workspaces.has('ws')).toBe(false);
  });

  it('a tick works until nothing is scheduled, then sweeps orphan files', async () => {
    const { deletion, store, media } = setUp({ sync: 10, batch: 5 });
    store.add('a', { shipment: 12 }, true);
    store.add('b', { order: 1 }, true);
    expect(await deletion.tick(10_000)).toBe(4);
    expect(store.workspaces.size).toBe(0);
    expect(media.sweepOrphanFiles).toHaveBeenCalled();
  });
});

describe('deletionOrder', () => {
  it('puts a table after every table that references it, names unquoted', () => {
    const order = deletionOrder(TABLES).map((t) => t.table);
    expect(order).toEqual(['shipment_item', 'shipment', 'order_item', 'order']);
    for (const { table, referencedBy } of TABLES)
      for (const other of referencedBy)
        expect(order.indexOf(other)).toBeLessThan(order.indexOf(table.replace(/"/g, '')));
  });

  it('breaks a cycle instead of looping', () => {
    const cycle: WorkspaceTable[] = [
      { table: 'a', column: 'workspace_id', referencedBy: ['b'] },
      { table: 'b', column: 'workspace_id', referencedBy: ['a'] },
    ];
    expect(deletionOrder(cycle).map((t) => t.table)).toEqual(['a', 'b']);
  });
});
