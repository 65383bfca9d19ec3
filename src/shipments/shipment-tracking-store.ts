import { Injectable } from '@nestjs/common';
import { execute, query, type SqlRunner } from '../database/query';
import {
  PREDICTION_STATE_SELECT,
  type ShipmentPredictionColumns,
} from './shipment-prediction-store';
import { teamWorkspacesSql } from '../workspaces/workspace-lookup-store';
import { workspaceTeamSql } from '../workspaces/workspace-team-sql';

/**
 * Pieces of SQL over shipments for the tracking module's statements (its remote tracking
 * state joins the shipment it tracks). Arguments are SQL expressions.
 */
export const shipmentTrackingSql = {
  /** `JOIN shipment <alias>` on the shipment `shipmentId`. */
  join: (alias: string, shipmentId: string): string =>
    `JOIN shipment ${alias} ON ${alias}.id = ${shipmentId}`,
  /** The shipments of the team `team`, as a condition over the shipment row `alias`. */
  ofTeam: (alias: string, team: string): string =>
    `${alias}.workspace_id IN (${teamWorkspacesSql(team)})`,
};

/** What the tracking engine needs to ask a provider about a shipment. */
export interface ShipmentToTrack {
  id: string;
  tracking_number: string | null;
  origin_carrier: string | null;
  created_at: Date;
  tracking_attempts: number;
  team_id: string;
}

/** A failed tracking, rescheduled (ShipmentTrackingStore.reschedule). */
export interface TrackingRetry {
  shipmentId: string;
  retryAt: Date;
  /** What the tenant reads in `trackingError`. */
  error: string;
}

/** The tracking columns of a shipment (dates as ISO strings), as the tracking engine writes them. */
export interface ShipmentTrackingColumns<Facts = unknown> {
  tracking_status: string | null;
  days_in_transit: number | null;
  days_in_idle: number | null;
  shipped_at: string | null;
  last_status_update: string | null;
  expected_delivery_date: string | null;
  origin_country: string | null;
  origin_country_iso2: string | null;
  destination_country: string | null;
  destination_country_iso2: string | null;
  destination_carrier: string | null;
  next_check_at: string | null;
  tracking_attempts: number;
  tracking_facts: Facts;
  last_tracked_at: string;
}

/**
 * One row of ShipmentTrackingStore.applyTracking: a shipment's recomputed tracking columns.
 * `touched`: a change the API shows (it moves `updated_at`).
 */
export interface TrackingColumnsChange extends ShipmentTrackingColumns {
  id: string;
  touched: boolean;
  /**
   * The delivery prediction columns decided for the same state (src/predictions, through the
   * tracking apply extensions), written by the same UPDATE; absent: left as they are.
   * (`expected_delivery_date` above is then the prediction's.)
   */
  prediction?: Omit<ShipmentPredictionColumns, 'id' | 'expected_delivery_date'>;
}

/** The prediction columns a tracking change may carry (`prediction`). */
const PREDICTION_COLUMNS = [
  'delivery_prediction',
  'delivery_prediction_announced',
  'attention',
  'attention_codes',
  'attention_check_at',
] as const satisfies readonly (keyof ShipmentPredictionColumns)[];

const TO_TRACK = `SELECT s.id, s.tracking_number, s.origin_carrier, s.created_at,
       s.tracking_attempts, ${workspaceTeamSql.teamOf('s.workspace_id')} AS team_id
  FROM shipment s`;

/**
 * The shipment table's SQL for the tracking engine (src/tracking): what it tracks, the
 * tracking columns it writes, the refresh schedule (`next_check_at`) and the lookups of its
 * actions. Statements run on the caller's runner (its transaction when it has one).
 */
@Injectable()
export class ShipmentTrackingStore {
  /** The shipments of `ids` to track (those that exist). */
  toTrack(runner: SqlRunner, ids: readonly string[]): Promise<ShipmentToTrack[]> {
    return query<ShipmentToTrack>(runner, `${TO_TRACK} WHERE s.id = ANY($1::uuid[])`, [ids]);
  }

  /**
   * Locks the shipments in id order (concurrent batches cannot deadlock) and answers their
   * tracking columns, typed by the engine (`T`: the columns it reads); with `predictionState`
   * also what delivery predictions read (ShipmentPredictionState), so that they need not read
   * the rows again.
   */
  lockForTracking<T extends { id: string }>(
    runner: SqlRunner,
    ids: readonly string[],
    predictionState = false,
  ) {
    return query<T>(
      runner,
      `SELECT s.id, s.workspace_id, s.tracking_number, s.origin_carrier, s.created_at,
              s.tracking_status, s.last_status_update, s.days_in_transit, s.days_in_idle,
              s.shipped_at, s.expected_delivery_date, s.origin_country, s.origin_country_iso2,
              s.destination_country, s.destination_country_iso2, s.destination_carrier,
              s.tracking_attempts, s.tracking_facts${predictionState ? `, ${PREDICTION_STATE_SELECT}` : ''}
         FROM shipment s WHERE s.id = ANY($1::uuid[]) ORDER BY s.id FOR UPDATE`,
      [ids],
    );
  }

  /** Writes the recomputed tracking columns; a successful tracking clears the error. */
  async applyTracking(runner: SqlRunner, changes: readonly TrackingColumnsChange[]): Promise<void> {
    await runner.query(
      `UPDATE shipment s SET
          tracking_status = v.tracking_status, days_in_transit = v.days_in_transit,
          days_in_idle = v.days_in_idle, shipped_at = v.shipped_at,
          last_status_update = v.last_status_update, expected_delivery_date = v.expected_delivery_date,
          origin_country = v.origin_country, origin_country_iso2 = v.origin_country_iso2,
          destination_country = v.destination_country,
          destination_country_iso2 = v.destination_country_iso2,
          destination_carrier = v.destination_carrier, next_check_at = v.next_check_at,
          tracking_attempts = v.tracking_attempts, tracking_facts = v.tracking_facts,
          last_tracked_at = v.last_tracked_at, tracking_error = NULL,
          updated_at = CASE WHEN v.touched THEN now() ELSE s.updated_at END,
          ${PREDICTION_COLUMNS.map(
            (c) => `${c} = CASE WHEN v.predicted THEN v.${c} ELSE s.${c} END`,
          ).join(', ')}
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, tracking_status text, days_in_transit int,
              days_in_idle int, shipped_at timestamptz, last_status_update timestamptz,
              expected_delivery_date timestamptz, origin_country text, origin_country_iso2 text,
              destination_country text, destination_country_iso2 text, destination_carrier text,
              next_check_at timestamptz, tracking_attempts int, tracking_facts jsonb,
              last_tracked_at timestamptz, touched boolean, predicted boolean,
              delivery_prediction jsonb, delivery_prediction_announced jsonb, attention text,
              attention_codes text[], attention_check_at timestamptz)
        WHERE s.id = v.id`,
      [
        JSON.stringify(
          changes.map(({ prediction, ...change }) =>
            prediction ? { ...change, ...prediction, predicted: true } : change,
          ),
        ),
      ],
    );
  }

  /** A new journey (the number changed): every tracking field cleared, attempts reset. */
  async startNewJourney(runner: SqlRunner, id: string): Promise<void> {
    await execute(
      runner,
      `UPDATE shipment SET tracking_status = NULL, days_in_transit = NULL, days_in_idle = NULL,
              shipped_at = NULL, last_status_update = NULL, expected_delivery_date = NULL,
              origin_country = NULL, origin_country_iso2 = NULL, destination_country = NULL,
              destination_country_iso2 = NULL, destination_carrier = NULL,
              tracking_attempts = 0, tracking_facts = NULL, tracking_error = NULL
        WHERE id = $1`,
      [id],
    );
  }

  /** The shipment is due at `at` (a job tracks it meanwhile). */
  async dueAt(runner: SqlRunner, id: string, at: Date): Promise<void> {
    await execute(runner, `UPDATE shipment SET next_check_at = $2 WHERE id = $1`, [id, at]);
  }

  /** These shipments, when still scheduled, are due again at `at`. */
  async dueAgainAt(runner: SqlRunner, ids: readonly string[], at: Date): Promise<void> {
    await execute(
      runner,
      `UPDATE shipment SET next_check_at = $2 WHERE id = ANY($1::uuid[]) AND next_check_at IS NOT NULL`,
      [ids, at],
    );
  }

  /** Failed trackings: due at their retry, one attempt more, the error shown to the tenant. */
  async reschedule(runner: SqlRunner, retries: readonly TrackingRetry[]): Promise<void> {
    await runner.query(
      `UPDATE shipment s SET next_check_at = f.retry_at, tracking_attempts = s.tracking_attempts + 1,
              tracking_error = f.error
         FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, retry_at timestamptz, error text)
        WHERE s.id = f.id AND s.next_check_at IS NOT NULL`,
      [
        JSON.stringify(
          retries.map((f) => ({ id: f.shipmentId, retry_at: f.retryAt, error: f.error })),
        ),
      ],
    );
  }

  /**
   * Claims up to `limit` shipments due at `now` and not final, oldest due first, leasing them
   * until `lease`; locked ones (another node's claim) are skipped.
   */
  async claimDue(
    runner: SqlRunner,
    claim: { now: Date; limit: number; lease: Date; finalStatuses: readonly string[] },
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `WITH due AS (
         SELECT id FROM shipment
          WHERE next_check_at <= $1
            AND (tracking_status IS NULL OR tracking_status <> ALL($4::text[]))
          ORDER BY next_check_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED)
       UPDATE shipment s SET next_check_at = $3
         FROM due WHERE s.id = due.id
       RETURNING s.id`,
      [claim.now, claim.limit, claim.lease, claim.finalStatuses],
    );
    return rows.map((r) => r.id);
  }

  /** The shipments of `ids` whose claim with this lease still stands (not yet refreshed). */
  async stillLeased(runner: SqlRunner, ids: readonly string[], lease: Date): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT id FROM shipment WHERE id = ANY($1::uuid[]) AND next_check_at = $2`,
      [ids, lease],
    );
    return rows.map((r) => r.id);
  }

  /** Of these ids, those of shipments in these workspaces. */
  async inWorkspaces(
    runner: SqlRunner,
    ids: readonly string[],
    workspaceIds: readonly string[],
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT id FROM shipment WHERE id = ANY($1::uuid[]) AND workspace_id = ANY($2::uuid[])`,
      [ids, workspaceIds],
    );
    return rows.map((r) => r.id);
  }

  /** The shipments of the workspace with these tracking numbers. */
  byTrackingNumbers(
    runner: SqlRunner,
    workspaceId: string,
    numbers: readonly string[],
  ): Promise<Array<{ id: string; tracking_number: string }>> {
    return query<{ id: string; tracking_number: string }>(
      runner,
      `SELECT id, tracking_number FROM shipment
        WHERE workspace_id = $1 AND tracking_number = ANY($2::text[])`,
      [workspaceId, numbers],
    );
  }

  /** The carrier a shipment was detected with; null when none or no such shipment. */
  async originCarrier(runner: SqlRunner, id: string): Promise<string | null> {
    const rows = await query<{ origin_carrier: string | null }>(
      runner,
      `SELECT origin_carrier FROM shipment WHERE id = $1`,
      [id],
    );
    return rows[0]?.origin_carrier ?? null;
  }
}
