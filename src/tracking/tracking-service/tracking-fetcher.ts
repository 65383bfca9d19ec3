import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import type { ShipmentToTrack } from '../../shipments/shipment-tracking-store';
import { Clock } from '../clock';
import { TrackingProviderRegistry, type TrackingResult } from '../providers';
import type { TrackingCredentials } from '../providers/remote/provider-credentials-store';
import {
  PUSH_SAFETY_POLL_MS,
  RemoteTracking,
  type RemoteShipment,
} from '../providers/remote/remote-tracking';
import { mapWithConcurrency, withTimeout } from './concurrency';
import type { TrackingUpdate } from './tracking-writer';

/** Remote shipments whose results were applied, to stop the final ones at the provider. */
export type RemoteApplied = Array<{ route: TrackingCredentials; rows: ShipmentToTrack[] }>;

/** What a provider answered about a shipment: an update to apply, a failure, or later. */
export type Fetched =
  | { row: ShipmentToTrack; update: TrackingUpdate }
  | { row: ShipmentToTrack; error: unknown }
  | { row: ShipmentToTrack; deferred: true };

/**
 * Asks the providers about shipments, outside any transaction (no lock is held while a
 * carrier answers): remote ones in batches per credentials (RemoteTracking), the rest through
 * the built-in registry. What they answer is applied by TrackingService.
 */
@Injectable()
export class TrackingFetcher {
  constructor(
    private readonly providers: TrackingProviderRegistry,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly remote: RemoteTracking,
  ) {}

  /**
   * Asks each shipment's provider: remote ones (a team's credentials or TRACKING_PROVIDER) in
   * batches per credentials, the rest through the built-in registry one by one.
   */
  async fetchAll(
    rows: ShipmentToTrack[],
    timeoutMs: number,
    concurrency = this.config.trackingRefreshConcurrency,
  ): Promise<{ fetched: Fetched[]; remote: RemoteApplied; remoteIds: Set<string> }> {
    const withNumber = rows.filter(
      (r): r is ShipmentToTrack & RemoteShipment =>
        r.tracking_number !== null && r.tracking_number.trim() !== '',
    );
    const routes = await this.remote.route(withNumber);
    const remoteIds = new Set(routes.groups.flatMap((g) => g.shipments.map((s) => s.id)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const fetched: Fetched[] = await mapWithConcurrency(
      rows.filter((r) => !remoteIds.has(r.id)),
      concurrency,
      (row) => this.fetch(row, timeoutMs),
    );
    const remote: RemoteApplied = [];
    for (const group of routes.groups) {
      const answers = await this.remote.fetch(group.route, group.shipments, {
        timeoutMs,
        now: this.clock.now(),
      });
      const groupRows: ShipmentToTrack[] = [];
      for (const shipment of group.shipments) {
        const row = byId.get(shipment.id)!;
        const answer = answers.get(shipment.id);
        if (!answer || 'error' in answer) {
          fetched.push({ row, error: answer?.error ?? new Error('the provider gave no answer') });
          continue;
        }
        if ('deferred' in answer) {
          fetched.push({ row, deferred: true });
          continue;
        }
        groupRows.push(row);
        fetched.push({
          row,
          update: {
            shipmentId: row.id,
            expectedTrackingNumber: row.tracking_number,
            checkpoints: answer.result.checkpoints,
            facts: answer.result.facts,
            source: 'provider',
            pollAfterMs: answer.pushManaged ? PUSH_SAFETY_POLL_MS : undefined,
          },
        });
      }
      remote.push({ route: group.route, rows: groupRows });
    }
    return { fetched, remote, remoteIds };
  }

  /** Whether a remote provider (credentials or TRACKING_PROVIDER) tracks this shipment. */
  async routedToRemote(row: ShipmentToTrack, em: EntityManager): Promise<boolean> {
    if (row.tracking_number === null || row.tracking_number.trim() === '') return false;
    const routes = await this.remote.route([row as ShipmentToTrack & RemoteShipment], em);
    return routes.groups.length > 0;
  }

  /** Asks the built-in registry about one shipment, within `timeoutMs`. */
  async fetch(
    row: ShipmentToTrack,
    timeoutMs: number,
  ): Promise<Exclude<Fetched, { deferred: true }>> {
    const number = row.tracking_number;
    if (number === null || number.trim() === '') {
      // Nothing to ask: the engine clears the tracking fields.
      return {
        row,
        update: {
          shipmentId: row.id,
          expectedTrackingNumber: number,
          checkpoints: [],
          facts: {},
          source: 'provider',
        },
      };
    }
    try {
      const result: TrackingResult = await withTimeout(
        this.providers.track(number, row.origin_carrier, {
          now: this.clock.now(),
          createdAt: row.created_at,
        }),
        timeoutMs,
        `tracking ${number}`,
      );
      return {
        row,
        update: {
          shipmentId: row.id,
          expectedTrackingNumber: number,
          checkpoints: result.checkpoints,
          facts: result.facts,
          source: 'provider',
        },
      };
    } catch (error) {
      return { row, error };
    }
  }
}
