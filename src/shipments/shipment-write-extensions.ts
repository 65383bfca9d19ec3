import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { EntityManager } from 'typeorm';
import type { Violation } from '../common/errors/api-errors';
import type { OutboxEvent } from '../events/outbox';
import type { NestedElement, WriteContext } from '../hydra/core/resource-hooks';
import type { Shipment } from './shipment.entity';
import type { DependentInsert } from './shipment-store';

/** What a write did to a shipment, for those who react to it (tracking). */
export interface ShipmentWriteEvent {
  shipment: Shipment;
  operation: 'post' | 'put';
  /** True on create with a number, and on a PUT that set or changed it. */
  trackingNumberChanged: boolean;
  previousTrackingNumber: string | null;
  /** The write's transaction: work done here commits or rolls back with it. */
  em: EntityManager;
  /**
   * An extension that writes the shipment's row (or its order links or items) calls this, so
   * `shipment.created` reads the shipment again instead of using the snapshot its INSERT read.
   */
  rowChanged(): void;
}

/** A shipment about to be created: what its tracking is computed from. */
export interface NewShipment {
  id: string;
  workspaceId: string;
  teamId: string;
  trackingNumber: string | null;
  originCarrier: string | null;
  /** The `created_at` its row gets (the transaction's time). */
  createdAt: Date;
}

/** The tracking state a new shipment's columns hold, as deciders of more columns read it. */
export interface NewShipmentTracked {
  status: string | null;
  originCountryIso2: string | null;
  destinationCountryIso2: string | null;
  /** The carrier's own expected delivery date (ISO). */
  carrierDate: string | null;
  /** Its checkpoints (the carrier's time and status), inserted with the row. */
  checkpoints: readonly { at: Date; status: string }[];
}

/** The tracking of a new shipment, decided before its row is inserted. */
export interface NewShipmentTracking {
  /** Columns of the row (by column name): the tracking fields, the next check. */
  columns: Record<string, unknown>;
  /** What those columns hold; absent when the shipment is left to be tracked later. */
  tracked?: NewShipmentTracked;
  /**
   * Rows that refer to the new one (its checkpoints), as one INSERT taking one parameter
   * (`sql(placeholder)`, `param`), written by the row's own INSERT statement.
   */
  dependents?: DependentInsert | null;
  /** Writes what else refers to the row (a tracking job), once it exists. */
  afterInsert?(em: EntityManager): Promise<void>;
  /** Events recorded with `shipment.created`, in the same statement (the status change). */
  events: OutboxEvent[];
}

/** A shipment about to be created, with what its tracking left and what the create read. */
export interface NewShipmentFacts extends NewShipment {
  postcode: string | null;
  addressCountryIso2: string | null;
  tracked: NewShipmentTracked | null;
  /** The create's first statement's row: the deciders' `column`s by their aliases. */
  creation: Readonly<Record<string, unknown>>;
}

/** Columns another module decides for a new shipment, written by its INSERT. */
export interface NewShipmentDecision {
  /** By column name; they replace the tracking's (`expected_delivery_date`). */
  columns: Record<string, unknown>;
  /** Recorded with `shipment.created`, in the same statement, after the tracking's. */
  events: OutboxEvent[];
  /** Rows that refer to the new one (a contribution), written by the row's own INSERT. */
  dependents: DependentInsert[];
  /** Runs once the row exists. */
  afterInsert(em: EntityManager): Promise<void>;
}

/**
 * Decides more columns of a shipment being created, once its tracking is decided and before its
 * row is inserted (delivery predictions): the INSERT carries them and `shipment.created` shows
 * them, with no later write of the row.
 */
export interface NewShipmentDecider {
  /** One aliased SELECT-list entry over the workspace row `w`, read with the create's first statement. */
  readonly column?: string;
  decide(shipment: NewShipmentFacts, em: EntityManager): Promise<NewShipmentDecision>;
}

/**
 * A rule on new shipments that reads what it needs with the create's first statement
 * (ShipmentStore.creation) instead of a statement of its own: the plan limit.
 */
export interface CreationCheck {
  /** One aliased SELECT-list entry over the workspace row `w`; its value comes back in `row`. */
  column: string;
  /** Violations from what was read; asked once the shipment's own rules passed. */
  violations(row: Record<string, unknown>, ctx: WriteContext): Violation[] | Promise<Violation[]>;
}

/**
 * What another module adds to shipment writes. Every member is optional; an extension is a
 * provider of that module marked `@ExtendsShipmentWrites()`, listed in its `@Module`, which
 * ShipmentsService finds at start-up (the extending modules depend on the shipments module,
 * so it cannot inject them). Adding one is providing such a class.
 */
export interface ShipmentWriteExtension {
  /**
   * Read with a create's first statement, checked once the shipment's own rules passed (the
   * plan limit). Fixed at construction: the statement's shape is decided at start-up.
   */
  readonly creationCheck?: CreationCheck | null;
  /**
   * Decides the tracking of a shipment being created, in its transaction, before its row is
   * inserted: one INSERT then carries the tracking fields. At most one extension answers it.
   */
  trackNew?(shipment: NewShipment, em: EntityManager): Promise<NewShipmentTracking>;
  /** Decides more columns of a shipment being created (see NewShipmentDecider). */
  readonly newShipmentDecider?: NewShipmentDecider | null;
  /**
   * Writes the shipment items given as objects in a shipment's body (`shipmentItems`), after
   * the shipment is saved, in its transaction. At most one extension answers it.
   */
  writeNestedItems?(
    shipmentId: string,
    elements: NestedElement[],
    ctx: WriteContext,
  ): Promise<void>;
  /** Called inside every shipment create/replace transaction, before its event is recorded. */
  afterWrite?(event: ShipmentWriteEvent): Promise<void> | void;
}

/** Marks a provider as a ShipmentWriteExtension (see there). */
export const ExtendsShipmentWrites = DiscoveryService.createDecorator<void>();

/** The extensions of shipment writes, found among the application's providers. */
@Injectable()
export class ShipmentWriteExtensions implements OnModuleInit {
  private list: readonly ShipmentWriteExtension[] = [];
  private checks: readonly CreationCheck[] = [];
  private deciders: readonly NewShipmentDecider[] = [];

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  /** A registry of these extensions, without discovery (unit specs). */
  static of(extensions: readonly ShipmentWriteExtension[]): ShipmentWriteExtensions {
    const registry = new ShipmentWriteExtensions();
    registry.use(extensions);
    return registry;
  }

  onModuleInit(): void {
    if (!this.discovery) return;
    const found = this.discovery
      .getProviders({ metadataKey: ExtendsShipmentWrites.KEY })
      .map((wrapper) => wrapper.instance as ShipmentWriteExtension | undefined)
      .filter((instance): instance is ShipmentWriteExtension => !!instance);
    // A class provided by two modules is one extension.
    this.use([...new Set(found)]);
  }

  private use(extensions: readonly ShipmentWriteExtension[]): void {
    for (const member of ['trackNew', 'writeNestedItems'] as const) {
      if (extensions.filter((e) => e[member]).length > 1)
        throw new Error(`More than one shipment write extension answers ${member}`);
    }
    this.list = extensions;
    this.checks = extensions.flatMap((e) => (e.creationCheck ? [e.creationCheck] : []));
    this.deciders = extensions.flatMap((e) => (e.newShipmentDecider ? [e.newShipmentDecider] : []));
  }

  /** The creation checks, in a fixed order (their columns are the create statement's). */
  get creationChecks(): readonly CreationCheck[] {
    return this.checks;
  }

  /** What the create's first statement reads for the checks and the deciders. */
  get creationColumns(): readonly string[] {
    return [
      ...this.checks.map((c) => c.column),
      ...this.deciders.flatMap((d) => (d.column ? [d.column] : [])),
    ];
  }

  /** Every decider's columns for a new shipment, merged in order (a later one's column wins). */
  async decideNew(shipment: NewShipmentFacts, em: EntityManager): Promise<NewShipmentDecision> {
    const columns: Record<string, unknown> = {};
    const events: OutboxEvent[] = [];
    const dependents: DependentInsert[] = [];
    const after: NewShipmentDecision['afterInsert'][] = [];
    for (const decider of this.deciders) {
      const decided = await decider.decide(shipment, em);
      Object.assign(columns, decided.columns);
      events.push(...decided.events);
      dependents.push(...decided.dependents);
      after.push((m) => decided.afterInsert(m));
    }
    return {
      columns,
      events,
      dependents,
      afterInsert: async (m) => {
        for (const run of after) await run(m);
      },
    };
  }

  /** The tracking of a new shipment, when an extension decides it. */
  trackNew(shipment: NewShipment, em: EntityManager): Promise<NewShipmentTracking> | undefined {
    return this.list.find((e) => e.trackNew)?.trackNew?.(shipment, em);
  }

  /** The writer of nested shipment items. */
  nestedItemsWriter(): ShipmentWriteExtension['writeNestedItems'] {
    const writer = this.list.find((e) => e.writeNestedItems);
    return writer?.writeNestedItems?.bind(writer);
  }

  async afterWrite(event: ShipmentWriteEvent): Promise<void> {
    for (const extension of this.list) await extension.afterWrite?.(event);
  }
}
