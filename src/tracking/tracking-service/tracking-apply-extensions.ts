import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { SqlRunner } from '../../database/query';
import type { OutboxEvent } from '../../events/outbox';
import type {
  ShipmentPredictionColumns,
  ShipmentPredictionState,
} from '../../shipments/shipment-prediction-store';
import type { EngineCheckpoint } from '../engine';
import type { ShipmentTrackingRow, TrackingColumns } from './tracking-state';

/**
 * A shipment a tracking batch is about to write: its row as locked (with what predictions read
 * of it: the lock query answers it when extensions are active), its new tracking columns, all
 * its checkpoints.
 */
export interface PendingTrackingWrite {
  row: ShipmentTrackingRow & ShipmentPredictionState;
  columns: TrackingColumns;
  checkpoints: readonly EngineCheckpoint[];
}

/** Columns an extension decides for a shipment, written by the tracking writer's own UPDATE. */
export type ExtensionColumns = Omit<ShipmentPredictionColumns, 'id'>;

/** What an extension adds to one batch. */
export interface TrackingApplyAddition {
  /** Per shipment id: columns joining its tracking UPDATE (one write of the row, not two). */
  columns: ReadonlyMap<string, ExtensionColumns>;
  /** Its events, written by the tracking writer's own INSERT (one statement for the batch). */
  events: readonly OutboxEvent[];
  /** What it writes once the shipments are (other tables), in the same transaction. */
  afterWrite(): Promise<void>;
}

/**
 * What another module does in the transaction of every applied tracking batch (a refresh, a
 * check, pushed checkpoints): delivery predictions. Called with the batch's new state before
 * its UPDATE, so that its columns join that UPDATE and it reads nothing back. A provider of
 * that module marked `@ExtendsTrackingApplies()`, listed in its `@Module`, found at start-up
 * (the extending module depends on tracking, so tracking cannot inject it).
 */
export interface TrackingApplyExtension {
  beforeWrite(
    runner: SqlRunner,
    pending: readonly PendingTrackingWrite[],
    now: Date,
  ): Promise<TrackingApplyAddition>;
}

/** Marks a provider as a TrackingApplyExtension (see there). */
export const ExtendsTrackingApplies = DiscoveryService.createDecorator<void>();

/** The extensions of applied tracking batches, found among the application's providers. */
@Injectable()
export class TrackingApplyExtensions implements OnModuleInit {
  private list: readonly TrackingApplyExtension[] = [];

  /** Whether any extension is installed (the lock query then reads what they read). */
  get active(): boolean {
    return this.list.length > 0;
  }

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  onModuleInit(): void {
    if (!this.discovery) return;
    const found = this.discovery
      .getProviders({ metadataKey: ExtendsTrackingApplies.KEY })
      .map((wrapper) => wrapper.instance as TrackingApplyExtension | undefined)
      .filter((instance): instance is TrackingApplyExtension => !!instance);
    this.list = [...new Set(found)];
  }

  /** Every extension's addition to the batch, merged (a later extension's column wins). */
  async beforeWrite(
    runner: SqlRunner,
    pending: readonly PendingTrackingWrite[],
    now: Date,
  ): Promise<TrackingApplyAddition> {
    const columns = new Map<string, ExtensionColumns>();
    const events: OutboxEvent[] = [];
    const after: (() => Promise<void>)[] = [];
    for (const extension of this.list) {
      const added = await extension.beforeWrite(runner, pending, now);
      for (const [id, c] of added.columns) columns.set(id, { ...columns.get(id), ...c });
      events.push(...added.events);
      after.push(() => added.afterWrite());
    }
    return {
      columns,
      events,
      afterWrite: async () => {
        for (const run of after) await run();
      },
    };
  }
}
