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
import type { ShipmentPredictionRow } from '../shipments/shipment-prediction-store';
import { workspaceTeamSql } from '../workspaces/workspace-team-sql';
import { Clock } from '../tracking/clock';
import {
  ExtendsTrackingApplies,
  type PendingTrackingWrite,
  type TrackingApplyAddition,
  type TrackingApplyExtension,
} from '../tracking/tracking-service/tracking-apply-extensions';
import { decisionHolds, type TrackingEvidence } from './evidence';
import { PredictionWriter, type TrackedState } from './prediction-writer';

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
   * A create's prediction, decided from the tracking its INSERT carries: the columns and the
   * contribution join that INSERT, the events `shipment.created`'s statement. No row
   * or checkpoint read, no second write of the row.
   */
  readonly newShipmentDecider: NewShipmentDecider = {
    column: `${workspaceTeamSql.attentionWaitingDaysAt('w')} AS prediction_waiting_days`,
    decide: (shipment, em) => this.decideNew(shipment, em),
  };

  private async decideNew(s: NewShipmentFacts, em: EntityManager): Promise<NewShipmentDecision> {
    const t = s.tracked;
    const waitingDays = s.creation.prediction_waiting_days;
    const plan = await this.writer.planNew(
      em,
      [
        {
          // The row as ShipmentPredictionStore.rows would read it once inserted.
          row: rowWith(
            {
              id: s.id,
              workspace_id: s.workspaceId,
              team_id: s.teamId,
              attention_waiting_days: typeof waitingDays === 'number' ? waitingDays : null,
              tracking_number: s.trackingNumber,
              created_at: s.createdAt,
              origin_carrier: s.originCarrier,
              postcode: s.postcode,
              address_country_iso2: s.addressCountryIso2,
              delivery_prediction_announced: null,
              attention_codes: [],
              predicted: false,
            },
            {
              status: t?.status ?? null,
              originCountry: t?.originCountryIso2 ?? null,
              destinationCountry: t?.destinationCountryIso2 ?? s.addressCountryIso2,
              carrierDate: t?.carrierDate ?? null,
            },
          ),
          checkpoints: t?.checkpoints ?? [],
        },
      ],
      this.clock.now(),
    );
    const columns: Record<string, unknown> = { ...plan.columns[0] };
    delete columns.id;
    return {
      columns,
      events: plan.events,
      dependents: plan.dependents,
      afterInsert: () => Promise.resolve(plan.after()),
    };
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
    const changed: TrackedState[] = [];
    for (const { row, columns, checkpoints, checkpointsChanged } of pending) {
      const after = evidenceOf(columns, row.address_country_iso2);
      const before = evidenceOf(row, row.address_country_iso2);
      if (decisionHolds(before, after, checkpointsChanged, row.predicted)) unchanged.add(row.id);
      else
        changed.push({
          row: rowWith(row, after),
          checkpoints: checkpoints.map((c) => ({ at: c.checkpointDate, status: c.status })),
        });
    }
    const plan = await this.writer.planTracked(runner, changed, now);
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

/**
 * What tracking columns hold for predictions (as stored, or about to be written): the address's
 * country where tracking knows no destination, as ShipmentPredictionStore.rows reads it.
 */
function evidenceOf(
  c: Pick<
    PendingTrackingWrite['row'],
    'tracking_status' | 'origin_country_iso2' | 'destination_country_iso2' | 'tracking_facts'
  >,
  addressCountry: string | null,
): TrackingEvidence {
  return {
    status: c.tracking_status,
    originCountry: c.origin_country_iso2,
    destinationCountry: c.destination_country_iso2 ?? addressCountry,
    carrierDate: c.tracking_facts?.expectedDeliveryDate ?? null,
  };
}

/** The row as ShipmentPredictionStore.rows reads it, with this tracking evidence. */
function rowWith(
  b: Omit<
    ShipmentPredictionRow,
    'tracking_status' | 'origin_country_iso2' | 'destination_country_iso2' | 'carrier_date'
  >,
  e: TrackingEvidence,
): ShipmentPredictionRow {
  return {
    id: b.id,
    workspace_id: b.workspace_id,
    team_id: b.team_id,
    attention_waiting_days: b.attention_waiting_days,
    tracking_number: b.tracking_number,
    created_at: b.created_at,
    origin_carrier: b.origin_carrier,
    postcode: b.postcode,
    address_country_iso2: b.address_country_iso2,
    delivery_prediction_announced: b.delivery_prediction_announced,
    attention_codes: b.attention_codes,
    predicted: b.predicted,
    tracking_status: e.status,
    origin_country_iso2: e.originCountry,
    destination_country_iso2: e.destinationCountry,
    carrier_date: e.carrierDate,
  };
}
