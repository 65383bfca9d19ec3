import { Injectable } from '@nestjs/common';
import { execute, query, type SqlRunner } from '../database/query';
import { workspaceTeamSql } from '../workspaces/workspace-team-sql';

/** What delivery predictions read of a shipment's row (src/predictions). */
export interface ShipmentPredictionRow {
  id: string;
  workspace_id: string;
  /** The workspace's team and waiting rule (null: the workspace is gone). */
  team_id: string | null;
  attention_waiting_days: number | null;
  tracking_number: string | null;
  created_at: Date;
  tracking_status: string | null;
  origin_carrier: string | null;
  origin_country_iso2: string | null;
  /** The tracked destination country, else the address's. */
  destination_country_iso2: string | null;
  postcode: string | null;
  /** The address's country (the destination when tracking does not know it). */
  address_country_iso2: string | null;
  /** The carrier's own expected delivery date as it reports it now (tracking facts). */
  carrier_date: string | null;
  delivery_prediction_announced: { earliest: string; likely: string; latest: string } | null;
  attention_codes: string[];
  /** Whether a window is stored (`delivery_prediction`). */
  predicted: boolean;
}

/**
 * What predictions read of a row beside its tracking columns: the tracking writer's lock query
 * answers them when predictions extend it (ShipmentTrackingStore.lockForTracking), so that a
 * refresh reads its shipments once.
 */
export type ShipmentPredictionState = Pick<
  ShipmentPredictionRow,
  | 'team_id'
  | 'attention_waiting_days'
  | 'postcode'
  | 'address_country_iso2'
  | 'delivery_prediction_announced'
  | 'attention_codes'
  | 'predicted'
>;

/** The select list of ShipmentPredictionState over the shipment row `s`. */
export const PREDICTION_STATE_SELECT = `${workspaceTeamSql.teamOf('s.workspace_id')} AS team_id,
  ${workspaceTeamSql.attentionWaitingDaysOf('s.workspace_id')} AS attention_waiting_days,
  s.address_postcode AS postcode, s.address_country_iso2, s.delivery_prediction_announced,
  s.attention_codes, s.delivery_prediction IS NOT NULL AS predicted`;

/** The columns a status change decides about predictions (one shipment). */
export interface ShipmentPredictionColumns {
  id: string;
  delivery_prediction: Record<string, unknown> | null;
  delivery_prediction_announced: Record<string, unknown> | null;
  expected_delivery_date: string | null;
  attention: string | null;
  attention_codes: string[];
  attention_check_at: string | null;
}

const ROW_SELECT = `s.id, s.workspace_id, ${PREDICTION_STATE_SELECT},
  s.tracking_number, s.created_at, s.tracking_status,
  s.origin_carrier, s.origin_country_iso2,
  coalesce(s.destination_country_iso2, s.address_country_iso2) AS destination_country_iso2,
  s.tracking_facts->>'expectedDeliveryDate' AS carrier_date`;

/**
 * The shipment SQL of delivery predictions and attention (src/predictions): the rows the model
 * reads, the prediction columns it writes in the status change's transaction, and the
 * shipments whose attention is due for a re-evaluation.
 */
@Injectable()
export class ShipmentPredictionStore {
  async rows(runner: SqlRunner, ids: readonly string[]): Promise<ShipmentPredictionRow[]> {
    if (ids.length === 0) return [];
    return query<ShipmentPredictionRow>(
      runner,
      `SELECT ${ROW_SELECT} FROM shipment s WHERE s.id = ANY($1::uuid[]) ORDER BY s.id`,
      [ids],
    );
  }

  /** A page (by id) of the shipments of these workspaces: recomputations and the backtest. */
  async page(
    runner: SqlRunner,
    workspaceIds: readonly string[],
    afterId: string | null,
    limit: number,
  ): Promise<ShipmentPredictionRow[]> {
    return query<ShipmentPredictionRow>(
      runner,
      `SELECT ${ROW_SELECT} FROM shipment s
        WHERE s.workspace_id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR s.id > $2::uuid)
        ORDER BY s.id LIMIT $3`,
      [workspaceIds, afterId, limit],
    );
  }

  /** A page (by id) of the ids of these workspaces' shipments: a rebuild's walk. */
  ids(
    runner: SqlRunner,
    workspaceIds: readonly string[],
    afterId: string | null,
    limit: number,
  ): Promise<string[]> {
    return this.idPage(runner, workspaceIds, afterId, limit);
  }

  /** How many shipments these workspaces hold (the size of a team's recomputation). */
  async countOf(runner: SqlRunner, workspaceIds: readonly string[]): Promise<number> {
    const [row] = await query<{ n: number }>(
      runner,
      `SELECT count(*)::int AS n FROM shipment WHERE workspace_id = ANY($1::uuid[])`,
      [workspaceIds],
    );
    return row.n;
  }

  /**
   * A page (by id) of the shipments of these workspaces that never got a decision (no window,
   * no attention) though their status allows one (`statuses`, or none yet): the parcels a
   * backfill decides. Decided ones leave the set, so a page read again is a later page.
   */
  undecided(
    runner: SqlRunner,
    workspaceIds: readonly string[],
    statuses: readonly string[],
    afterId: string | null,
    limit: number,
  ): Promise<string[]> {
    return this.idPage(
      runner,
      workspaceIds,
      afterId,
      limit,
      `AND s.delivery_prediction IS NULL AND s.attention IS NULL
       AND (s.tracking_status IS NULL OR s.tracking_status = ANY($4::text[]))`,
      [statuses],
    );
  }

  /** Ids of these workspaces' shipments after `afterId`, by id; `where` (from $4) narrows it. */
  private async idPage(
    runner: SqlRunner,
    workspaceIds: readonly string[],
    afterId: string | null,
    limit: number,
    where = '',
    params: readonly unknown[] = [],
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT s.id FROM shipment s
        WHERE s.workspace_id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR s.id > $2::uuid) ${where}
        ORDER BY s.id LIMIT $3`,
      [workspaceIds, afterId, limit, ...params],
    );
    return rows.map((r) => r.id);
  }

  /** Writes the prediction columns (the caller holds the rows' locks); not `updated_at`: derived. */
  async write(runner: SqlRunner, columns: readonly ShipmentPredictionColumns[]): Promise<void> {
    if (columns.length === 0) return;
    await execute(
      runner,
      `UPDATE shipment s SET delivery_prediction = v.delivery_prediction,
              delivery_prediction_announced = v.delivery_prediction_announced,
              expected_delivery_date = v.expected_delivery_date, attention = v.attention,
              attention_codes = v.attention_codes, attention_check_at = v.attention_check_at
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, delivery_prediction jsonb,
              delivery_prediction_announced jsonb, expected_delivery_date timestamptz,
              attention text, attention_codes text[], attention_check_at timestamptz)
        WHERE s.id = v.id
          AND (s.delivery_prediction, s.delivery_prediction_announced, s.expected_delivery_date,
               s.attention, s.attention_codes, s.attention_check_at)
              IS DISTINCT FROM (v.delivery_prediction, v.delivery_prediction_announced,
               v.expected_delivery_date, v.attention, v.attention_codes, v.attention_check_at)`,
      [JSON.stringify(columns)],
    );
  }

  /** Writes attention alone (a time rule's re-evaluation: the window does not change). */
  async writeAttention(
    runner: SqlRunner,
    columns: readonly Pick<
      ShipmentPredictionColumns,
      'id' | 'attention' | 'attention_codes' | 'attention_check_at'
    >[],
  ): Promise<void> {
    if (columns.length === 0) return;
    await execute(
      runner,
      `UPDATE shipment s SET attention = v.attention, attention_codes = v.attention_codes,
              attention_check_at = v.attention_check_at
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, attention text, attention_codes text[],
              attention_check_at timestamptz)
        WHERE s.id = v.id`,
      [JSON.stringify(columns)],
    );
  }

  /**
   * Locks up to `limit` shipments whose attention is due (`attention_check_at <= now`), skipping
   * those another node or a status change holds, oldest due first.
   */
  async claimAttentionDue(runner: SqlRunner, now: Date, limit: number): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT id FROM shipment WHERE attention_check_at <= $1
        ORDER BY attention_check_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Locks these shipments in id order (as the tracking writer does: no deadlock between them). */
  async lock(runner: SqlRunner, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await execute(
      runner,
      `SELECT id FROM shipment WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
  }
}
