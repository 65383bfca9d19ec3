import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query } from '../../database/query';

/** A checkpoint as the public views (tracking page, widgets) show it. */
export interface PublicCheckpointRow {
  shipment_id: string;
  checkpoint_date: Date;
  status: string;
  info: string | null;
  location: string | null;
  country_iso2: string | null;
  carrier: string | null;
}

const COLUMNS = 'shipment_id, checkpoint_date, status, info, location, country_iso2, carrier';

/** The tracking_checkpoint table's SQL for the public views of shipments. */
@Injectable()
export class CheckpointPageStore {
  constructor(private readonly db: DataSource) {}

  /** Every checkpoint of the shipment, newest first. */
  async ofShipment(shipmentId: string): Promise<PublicCheckpointRow[]> {
    return query<PublicCheckpointRow>(
      this.db,
      `SELECT ${COLUMNS} FROM tracking_checkpoint WHERE shipment_id = $1
        ORDER BY checkpoint_date DESC, id`,
      [shipmentId],
    );
  }

  /** The newest `limit` checkpoints of each shipment, by shipment, newest first. */
  async latestOf(shipmentIds: readonly string[], limit: number): Promise<PublicCheckpointRow[]> {
    if (shipmentIds.length === 0) return [];
    return query<PublicCheckpointRow>(
      this.db,
      `SELECT c.shipment_id, c.checkpoint_date, c.status, c.info, c.location, c.country_iso2,
              c.carrier
         FROM (SELECT DISTINCT id FROM unnest($1::uuid[]) AS u(id)) s
         CROSS JOIN LATERAL (
           SELECT * FROM tracking_checkpoint t WHERE t.shipment_id = s.id
            ORDER BY t.checkpoint_date DESC, t.id LIMIT ${Math.trunc(limit)}) c
        ORDER BY c.shipment_id, c.checkpoint_date DESC, c.id`,
      [shipmentIds],
    );
  }
}
