import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../database/query';
import type { EntityManager } from 'typeorm';
import {
  ExtendsShipmentWrites,
  type NewShipmentDecider,
  type NewShipmentDecision,
  type NewShipmentFacts,
  type ShipmentWriteEvent,
  type ShipmentWriteExtension,
} from '../shipments/shipment-write-extensions';
import { workspaceTeamSql } from '../workspaces/workspace-team-sql';
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

  /**
   * A create's prediction, decided from the tracking its INSERT carries: the columns join that
   * INSERT, the events `shipment.created`'s statement, the contribution follows the row. No row
   * or checkpoint read, no second write of the row.
   */
  readonly newShipmentDecider: NewShipmentDecider = {
    column: `${workspaceTeamSql.attentionWaitingDaysAt('w')} AS prediction_waiting_days`,
    decide: (shipment, em) => this.decideNew(shipment, em),
  };

  private async decideNew(s: NewShipmentFacts, em: EntityManager): Promise<NewShipmentDecision> {
    const t = s.tracked;
    const waitingDays = s.creation.prediction_waiting_days;
    const plan = await this.writer.planTracked(
      em,
      [
        {
          // The row as ShipmentPredictionStore.rows would read it once inserted.
          row: {
            id: s.id,
            workspace_id: s.workspaceId,
            team_id: s.teamId,
            attention_waiting_days: typeof waitingDays === 'number' ? waitingDays : null,
            tracking_number: s.trackingNumber,
            created_at: s.createdAt,
            tracking_status: t?.status ?? null,
            origin_carrier: s.originCarrier,
            origin_country_iso2: t?.originCountryIso2 ?? null,
            destination_country_iso2: t?.destinationCountryIso2 ?? s.addressCountryIso2,
            postcode: s.postcode,
            address_country_iso2: s.addressCountryIso2,
            carrier_date: t?.carrierDate ?? null,
            delivery_prediction_announced: null,
            attention_codes: [],
            predicted: false,
          },
          checkpoints: t?.checkpoints ?? [],
        },
      ],
      this.clock.now(),
    );
    const columns: Record<string, unknown> = { ...plan.columns[0] };
    delete columns.id;
    return { columns, events: plan.events, afterInsert: () => plan.finish().then(() => undefined) };
  }

  async afterWrite(event: ShipmentWriteEvent): Promise<void> {
    // A create's prediction was decided with its INSERT (newShipmentDecider).
    if (event.operation === 'post') return;
    const changed = await this.writer.refresh(event.em, [event.shipment.id], this.clock.now());
    // shipment.updated then reads the row again, prediction included.
    if (changed > 0) event.rowChanged();
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
