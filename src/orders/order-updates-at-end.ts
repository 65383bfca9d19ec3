import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { recordEvents, type OutboxEvent } from '../events/outbox';
import { RecordChangeEvents, type RecordsBefore } from '../events/record-change-events';
import { changedFields } from '../shipments/shipment-changes';
import { withDeferredRefresh } from './deferred-refresh';
import { orderAfterEachShipment } from './order-rules';
import { OrderStore } from './order-store';
import { Order } from './order.entity';

/** A new shipment written while its orders' updates wait (OrderUpdatesAtEnd). */
export interface ShipmentOfShare {
  shipmentId: string;
  /** The orders its write would have watched and announced (`order.updated`). */
  watched: readonly string[];
  /** The orders it links. */
  linked: readonly string[];
  /** Without a tracking number. */
  untracked: boolean;
}

/** What the shipments of a share leave to its end. */
export interface PendingOrderUpdates {
  /** Each watched order as it was before the first shipment that watched it. */
  readonly before: RecordsBefore;
  /** The shipments, in the order they were written. */
  readonly shipments: ShipmentOfShare[];
  /** The orders whose aggregates wait for the end (a deferred refresh's set). */
  readonly dirty: Set<string>;
}

/** Where a runner carries its share's pending order updates. */
const PENDING = Symbol('order updates at the end');

type Carrying = { readonly [PENDING]?: PendingOrderUpdates };

/** The pending order updates a runner's writes go to (OrderUpdatesAtEnd.start), if any. */
export function orderUpdatesAtEndOf(em: object): PendingOrderUpdates | undefined {
  return (em as Carrying)[PENDING];
}

/**
 * New shipments written one after the other in one transaction (an import's share, each
 * order's parcels after its lines) refresh their orders and record each order's
 * `order.updated` (`cause: "shipment"`) once at the end instead of after each: the runner
 * `start` gives carries the orders to refresh (a deferred refresh) and the shipments written,
 * and `finish` refreshes every order once, reads them once, and computes the order after each
 * shipment from the order before the first and after the last (orderAfterEachShipment): the
 * same events with the same payloads as shipment after shipment. Nothing written on that
 * runner may read the orders' aggregates meanwhile: only new shipments and their items go on
 * it. A state the rule cannot explain is an error (the caller's transaction fails), never a
 * guess.
 */
@Injectable()
export class OrderUpdatesAtEnd {
  constructor(
    private readonly changes: RecordChangeEvents,
    private readonly orders: OrderStore,
  ) {}

  /** A runner (the same transaction) whose new shipments leave their orders' updates to `finish`. */
  start<E extends object>(em: E): { runner: E; pending: PendingOrderUpdates } {
    const pending: PendingOrderUpdates = { before: new Map(), shipments: [], dirty: new Set() };
    const runner = Object.create(withDeferredRefresh(em, pending.dirty), {
      [PENDING]: { value: pending },
    }) as E;
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

  /** The orders refreshed once, and the events each shipment would have recorded. */
  async finish(em: EntityManager, pending: PendingOrderUpdates): Promise<void> {
    await this.orders.refreshAggregates(em, [...pending.dirty]);
    const ids = [...pending.before.keys()];
    if (ids.length === 0) return;
    const now = await this.changes.snapshots(em, Order, ids);
    const lines = await this.orders.shippedLines(em, ids);
    const iri = (shipmentId: string) => `/shipments/${shipmentId}`;
    const states = new Map<string, Array<Record<string, unknown>>>();
    for (const [id, was] of pending.before) {
      const after = now.get(id);
      if (!after) throw new Error(`Order ${id} went away while its shipments were written`);
      const steps = pending.shipments
        .filter((s) => s.watched.includes(id))
        .map((s) => ({
          iri: iri(s.shipmentId),
          linked: s.linked.includes(id),
          untracked: s.untracked,
        }));
      const computed = orderAfterEachShipment(
        was.representation,
        after.representation,
        steps,
        (lines.get(id) ?? []).map((line) => ({
          qty: line.qty,
          shippedBy: line.shippedBy.map((s) => ({ shipment: iri(s.shipmentId), qty: s.qty })),
        })),
      );
      if (!computed)
        throw new Error(`Order ${id} changed in a way its new shipments do not explain`);
      states.set(id, computed);
    }
    // In the order the shipments were written, each of its orders as it left them.
    const events: OutboxEvent[] = [];
    const last = new Map([...pending.before].map(([id, was]) => [id, was.representation]));
    for (const shipment of pending.shipments)
      for (const id of shipment.watched) {
        const next = states.get(id)?.shift();
        if (!next) continue;
        const changed = changedFields(last.get(id)!, next);
        last.set(id, next);
        if (changed.length === 0) continue;
        const snapshot = { workspaceId: now.get(id)!.workspaceId, representation: next };
        events.push(
          this.changes.event('order.updated', 'order', id, snapshot, changed, 'shipment'),
        );
      }
    await recordEvents(em, events);
  }
}
