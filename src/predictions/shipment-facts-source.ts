import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';
import { isTrackingStatusCode } from '../tracking/statuses';
import type { ShipmentFacts } from './contribution';
import type { Checkpoint } from './model/stages';

/** One shipment's facts, with where it belongs. */
export interface SourcedFacts {
  shipmentId: string;
  workspaceId: string;
  teamId: string;
  facts: ShipmentFacts;
}

/** Where a recomputation reads shipments and their checkpoints, a page at a time (by id). */
export interface ShipmentFactsSource {
  page(
    runner: SqlRunner,
    teamId: string,
    afterId: string | null,
    limit: number,
  ): Promise<SourcedFacts[]>;
}

interface SourceRow {
  id: string;
  workspace_id: string;
  team_id: string;
  created_at: Date;
  tracking_status: string | null;
  origin_carrier: string | null;
  origin_country_iso2: string | null;
  destination_country_iso2: string | null;
  postcode: string | null;
  carrier_date: string | null;
  checkpoints: Array<[string, string]>;
}

/**
 * PHASE 1 ONLY (issue 26): reads the `shipment`, `workspace` and `tracking_checkpoint` tables,
 * which other modules own, for the full recomputation. Phase 2 replaces this class with typed
 * fragment builders / methods of ShipmentStore and the tracking checkpoint store (the
 * architecture check lists this file as an exception until then).
 */
@Injectable()
export class SqlShipmentFactsSource implements ShipmentFactsSource {
  async page(
    runner: SqlRunner,
    teamId: string,
    afterId: string | null,
    limit: number,
  ): Promise<SourcedFacts[]> {
    const rows = await query<SourceRow>(
      runner,
      `SELECT s.id, s.workspace_id, w.team_id, s.created_at, s.tracking_status, s.origin_carrier,
              s.origin_country_iso2,
              coalesce(s.destination_country_iso2, s.address_country_iso2) AS destination_country_iso2,
              s.address_postcode AS postcode,
              s.tracking_facts->>'expectedDeliveryDate' AS carrier_date,
              coalesce((SELECT json_agg(json_build_array(c.checkpoint_date, c.status))
                          FROM tracking_checkpoint c WHERE c.shipment_id = s.id), '[]'::json) AS checkpoints
         FROM shipment s JOIN workspace w ON w.id = s.workspace_id
        WHERE w.team_id = $1 AND ($2::uuid IS NULL OR s.id > $2::uuid)
        ORDER BY s.id LIMIT $3`,
      [teamId, afterId, limit],
    );
    return rows.map((r) => ({
      shipmentId: r.id,
      workspaceId: r.workspace_id,
      teamId: r.team_id,
      facts: {
        createdAt: r.created_at,
        status: isTrackingStatusCode(r.tracking_status) ? r.tracking_status : null,
        checkpoints: r.checkpoints.flatMap(([at, status]): Checkpoint[] =>
          isTrackingStatusCode(status) ? [{ at: new Date(at), status }] : [],
        ),
        carrier: r.origin_carrier,
        originCountry: r.origin_country_iso2,
        destinationCountry: r.destination_country_iso2,
        postcode: r.postcode,
        carrierDate: r.carrier_date ? new Date(r.carrier_date) : null,
      },
    }));
  }
}
