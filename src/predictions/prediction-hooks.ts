import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../database/query';
import {
  ExtendsShipmentWrites,
  type ShipmentWriteEvent,
  type ShipmentWriteExtension,
} from '../shipments/shipment-write-extensions';
import { Clock } from '../tracking/clock';
import {
  ExtendsTrackingApplies,
  type PendingTrackingWrite,
  type TrackingApplyAddition,
  type TrackingApplyExtension,
} from '../tracking/tracking-service/tracking-apply-extensions';
import { decisionHolds } from './evidence';
import { PredictionWriter } from './prediction-writer';

/**
 * Where predictions plug into writes, in their transactions: a shipment's create or PUT (once
 * its row and the tracking filled in on create exist) and every applied tracking batch (a
 * refresh, a check, pushed checkpoints). The only wiring of this module into shipments and
 * tracking, as extensions both find at start-up; the rules are in PredictionWriter. Two
 * classes: Nest's discovery links a class to one discovery decorator only.
 */
@Injectable()
@ExtendsShipmentWrites()
export class PredictionOnShipmentWrite implements ShipmentWriteExtension {
  constructor(
    private readonly writer: PredictionWriter,
    private readonly clock: Clock,
  ) {}

  async afterWrite(event: ShipmentWriteEvent): Promise<void> {
    const changed = await this.writer.refresh(event.em, [event.shipment.id], this.clock.now());
    // shipment.created / updated then read the row again, prediction included.
    if (changed > 0 || event.operation === 'post') event.rowChanged();
  }
}

/**
 * See PredictionOnShipmentWrite: the same recomputation for applied tracking batches, from the
 * state the tracking writer locked and is about to write; the prediction columns (and
 * `expected_delivery_date`) join its UPDATE, the events its INSERT, the contributions follow.
 */
@Injectable()
@ExtendsTrackingApplies()
export class PredictionOnTrackingApply implements TrackingApplyExtension {
  constructor(private readonly writer: PredictionWriter) {}

  async beforeWrite(
    runner: SqlRunner,
    pending: readonly PendingTrackingWrite[],
    now: Date,
  ): Promise<TrackingApplyAddition> {
    // A refresh that brings nothing new (most do) keeps what was decided: no read, no model.
    const unchanged = new Set<string>();
    const changed = pending.filter((p) => {
      if (!holds(p)) return true;
      unchanged.add(p.row.id);
      return false;
    });
    const plan = await this.writer.planTracked(
      runner,
      changed.map(({ row, columns, checkpoints }) => ({
        row: {
          id: row.id,
          workspace_id: row.workspace_id,
          team_id: row.team_id,
          attention_waiting_days: row.attention_waiting_days,
          tracking_number: row.tracking_number,
          created_at: row.created_at,
          tracking_status: columns.tracking_status,
          origin_carrier: row.origin_carrier,
          origin_country_iso2: columns.origin_country_iso2,
          destination_country_iso2: columns.destination_country_iso2 ?? row.address_country_iso2,
          postcode: row.postcode,
          address_country_iso2: row.address_country_iso2,
          carrier_date: columns.tracking_facts.expectedDeliveryDate ?? null,
          delivery_prediction_announced: row.delivery_prediction_announced,
          attention_codes: row.attention_codes,
          predicted: row.predicted,
        },
        checkpoints: checkpoints.map((c) => ({ at: c.checkpointDate, status: c.status })),
      })),
      now,
    );
    return {
      columns: new Map(plan.columns.map(({ id, ...c }) => [id, c])),
      unchanged,
      events: plan.events,
      afterWrite: async () => {
        await plan.finish();
      },
    };
  }
}

/** decisionHolds of a pending tracking write: its row as locked against its new columns. */
function holds({ row, columns, checkpointsChanged }: PendingTrackingWrite): boolean {
  return decisionHolds(
    {
      status: row.tracking_status,
      originCountry: row.origin_country_iso2,
      destinationCountry: row.destination_country_iso2 ?? row.address_country_iso2,
      carrierDate: row.tracking_facts?.expectedDeliveryDate ?? null,
    },
    {
      status: columns.tracking_status,
      originCountry: columns.origin_country_iso2,
      destinationCountry: columns.destination_country_iso2 ?? row.address_country_iso2,
      carrierDate: columns.tracking_facts.expectedDeliveryDate ?? null,
    },
    checkpointsChanged,
    row.predicted,
  );
}
