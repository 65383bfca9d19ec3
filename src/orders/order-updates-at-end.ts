import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RunnerValue } from '../database/runner-value';
import { recordEvents, type OutboxEvent } from '../events/outbox';
import { RecordChangeEvents, type RecordsBefore } from '../events/record-change-events';
import { changedFields } from '../shipments/shipment-changes';
import { withDeferredRefresh } from './deferred-refresh';
import { OrderStore } from './order-store';
import { Order } from './order.entity';

/** What the shipments of a share leave to its end. */
export interface PendingOrderUpdates {
  /** Each watched order as it was before the first shipment that watched it. */
  readonly before: RecordsBefore;
  /** The orders whose aggregates wait for the end (a deferred refresh's set). */
  readonly dirty: Set<string>;
}

/** A share's pending order updates, carried by its runner. */
const PENDING = new RunnerValue<PendingOrderUpdates>('order updates at the end');

/** The pending order updates a runner's writes go to (OrderUpdatesAtEnd.start), if any. */
export function orderUpdatesAtEndOf(em: object): PendingOrderUpdates | undefined {
  return PENDING.of(em);
}

/**
 * New shipments written one after the other in one transaction (an import's share, each
 * order's parcels after its lines) refresh their orders and record each order's
 * `order.updated` (`cause: "shipment"`) once at the end instead of after each: the runner
 * `start` gives carries the orders to refresh (a deferred refresh) and each watched order as it
 * was before the first shipment that watched it; `finish` refreshes every order once, reads
 * them once, and records one update per order that changed, with every field the shipments
 * changed. That is what the transaction's events come to anyway: one per record and kind of
 * change (coalesceEvents), the steps between never committed. Nothing written on that runner
 * may read the orders' aggregates meanwhile: only new shipments and their items go on it.
 */
@Injectable()
export class OrderUpdatesAtEnd {
  constructor(
    private readonly changes: RecordChangeEvents,
    private readonly orders: OrderStore,
  ) {}

  /** A runner (the same transaction) whose new shipments leave their orders' updates to `finish`. */
  start<E extends object>(em: E): { runner: E; pending: PendingOrderUpdates } {
    const pending: PendingOrderUpdates = { before: new Map(), dirty: new Set() };
    const runner = PENDING.on(withDeferredRefresh(em, pending.dirty), pending);
    return { runner, pending };
  }

  /**
   * These orders as they are now, read in one statement, as the state before their first
   * shipment: for orders no shipment on the runner has changed yet (those its shipments will
   * watch), which the shipments' writes then need not read one by one.
   */
  async watch(em: EntityManager, pending: PendingOrderUpdates, ids: readonly string[]) {
    const wanted = ids.filter((id) => !pending.before.has(id));
    for (const [id, snapshot] of await this.changes.snapshots(em, Order, wanted))
      pending.before.set(id, snapshot);
  }

  /** The orders refreshed once, and one `order.updated` for each that the shipments changed. */
  async finish(em: EntityManager, pending: PendingOrderUpdates): Promise<void> {
    await this.orders.refreshAggregates(em, [...pending.dirty]);
    const ids = [...pending.before.keys()];
    if (ids.length === 0) return;
    const now = await this.changes.snapshots(em, Order, ids);
    const events: OutboxEvent[] = [];
    for (const [id, was] of pending.before) {
      const after = now.get(id);
      if (!after) throw new Error(`Order ${id} went away while its shipments were written`);
      const changed = changedFields(was.representation, after.representation);
      if (changed.length > 0)
        events.push(this.changes.event('order.updated', 'order', id, after, changed, 'shipment'));
    }
    await recordEvents(em, events);
  }
}
