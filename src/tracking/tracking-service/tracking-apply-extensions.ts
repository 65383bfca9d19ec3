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
 * its checkpoints, and how many of them this update inserted or corrected.
 */
export interface PendingTrackingWrite {
  row: ShipmentTrackingRow & ShipmentPredictionState;
  columns: TrackingColumns;
  checkpoints: readonly EngineCheckpoint[];
  checkpointsChanged: number;
}

/** Columns an extension decides for a shipment, written by the tracking writer's own UPDATE. */
export type ExtensionColumns = Omit<ShipmentPredictionColumns, 'id'>;

/** What an extension adds to one batch. */
export interface TrackingApplyAddition {
  /** Per shipment id: columns joining its tracking UPDATE (one write of the row, not two). */
  columns: ReadonlyMap<string, ExtensionColumns>;
  /**
   * Shipments whose columns it decides stay as stored (`expected_delivery_date` included): what
   * it decided from the same evidence still holds. Not also in `columns`.
   */
  unchanged: ReadonlySet<string>;
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
    const unchanged = new Set<string>();
    const events: OutboxEvent[] = [];
    const after: (() => Promise<void>)[] = [];
    for (const extension of this.list) {
      const added = await extension.beforeWrite(runner, pending, now);
      for (const [id, c] of added.columns) columns.set(id, { ...columns.get(id), ...c });
      for (const id of added.unchanged) unchanged.add(id);
      events.push(...added.events);
      after.push(() => added.afterWrite());
    }
    // A shipment one extension writes is not kept as stored by another.
    for (const id of columns.keys()) unchanged.delete(id);
    return {
      columns,
      unchanged,
      events,
      afterWrite: async () => {
        for (const run of after) await run();
      },
    };
  }
}
