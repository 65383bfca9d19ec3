import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { SqlRunner } from '../database/query';
import type { OutboxRow } from './outbox-store';

/** An outbox event as a delivery target reads it. */
export interface TargetedEvent {
  readonly id: string;
  readonly type: string;
  readonly workspaceId: string;
  readonly aggregateType: string;
  readonly aggregateId: string;
  readonly payload: Record<string, unknown>;
  readonly createdAt: Date;
}

/** An outbox row as the targets read it. */
export function targetedEventOf(e: OutboxRow): TargetedEvent {
  return {
    id: e.id,
    type: e.type,
    workspaceId: e.workspace_id!,
    aggregateType: e.aggregate_type,
    aggregateId: e.aggregate_id,
    payload: e.payload,
    createdAt: new Date(e.created_at),
  };
}

/** How one attempt went; a failure is retried with the outbox's backoff unless permanent. */
export interface TargetOutcome {
  readonly ok: boolean;
  readonly permanent: boolean;
  readonly error: string | null;
}

/**
 * A kind of delivery besides webhooks and e-mail notifications, attempted by the same loop with
 * the same retries and backoff (event-delivery.ts): tracking sent back to a store (the store
 * sync). Provided under EVENT_DELIVERY_TARGETS in the target's own `@Module`. Its deliveries
 * are `event_delivery` rows of one workflow with `target` = `name`.
 */
export interface EventDeliveryTarget {
  /** Stored as `event_delivery.target`. */
  readonly name: string;
  /**
   * The workflows each event of a dispatched batch goes to (one list per event, in order), read
   * in the dispatch transaction: in one statement for the batch, after leaving out by `type`
   * the events the target takes no interest in.
   */
  workflowsFor(runner: SqlRunner, events: readonly TargetedEvent[]): Promise<string[][]>;
  /**
   * Attempts the due deliveries of one workflow, oldest event first (one at a time, so a
   * store hears of a shipment's statuses in order); one outcome per event, in order.
   */
  deliver(
    workflowId: string,
    events: readonly TargetedEvent[],
    now: Date,
  ): Promise<TargetOutcome[]>;
}

export const EVENT_DELIVERY_TARGETS = Symbol('events:delivery-targets');

/** The delivery targets other modules provide (looked up once, at first use). */
@Injectable()
export class EventDeliveryTargets {
  private targets?: EventDeliveryTarget[];

  constructor(private readonly moduleRef: ModuleRef) {}

  all(): EventDeliveryTarget[] {
    if (!this.targets) {
      try {
        this.targets = this.moduleRef.get<EventDeliveryTarget>(EVENT_DELIVERY_TARGETS, {
          strict: false,
          each: true,
        });
      } catch {
        this.targets = []; // none provided (a module graph without store sync)
      }
    }
    return this.targets;
  }

  byName(name: string): EventDeliveryTarget | undefined {
    return this.all().find((t) => t.name === name);
  }
}
