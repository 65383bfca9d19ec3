import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RunnerValue } from '../database/runner-value';
import type { OutboxEvent } from '../events/outbox';
import { ShipmentEvents } from './shipment-events';

/** What a runner's new shipments leave to the end of its write. */
export interface PendingCreatedShipments {
  /** In the order created, each with the events its create records before `shipment.created`. */
  readonly created: Array<{ id: string; before: readonly OutboxEvent[] }>;
}

/** The new shipments whose `shipment.created` waits, carried by their runner. */
const PENDING = new RunnerValue<PendingCreatedShipments>('shipments created at the end');

/** The pending creates a runner's new shipments go to (ShipmentsCreatedAtEnd.start), if any. */
export function shipmentsCreatedAtEndOf(em: object): PendingCreatedShipments | undefined {
  return PENDING.of(em);
}

/**
 * New shipments whose items are written after them in the same transaction (an import's share
 * writes every parcel's items as one batch after its last parcel) record `shipment.created` at
 * the end: read once for all, with their items, instead of each reading itself before its items
 * exist and again for an update after them. The runner `start` gives carries the list; `finish`
 * reads the shipments in one statement and records each one's events, its create's own first
 * (as ShipmentEvents.created does). Only what the transaction then commits is ever seen: the
 * event is the same.
 */
@Injectable()
export class ShipmentsCreatedAtEnd {
  constructor(private readonly events: ShipmentEvents) {}

  /** A runner (the same transaction) whose new shipments leave `shipment.created` to `finish`. */
  start<E extends object>(em: E): { runner: E; pending: PendingCreatedShipments } {
    const pending: PendingCreatedShipments = { created: [] };
    return { runner: PENDING.on(em, pending), pending };
  }

  async finish(em: EntityManager, pending: PendingCreatedShipments): Promise<void> {
    await this.events.createdMany(em, pending.created);
  }
}
