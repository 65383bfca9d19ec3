import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryOne, type SqlRunner } from '../database/query';
import { statusFieldSql } from '../statuses/status-notification-store';
import { defaultTrackingPageIdSql, workspaceTitleSql } from '../workspaces/workspace-page-store';

/** What an e-mail notification about a shipment may say of it. */
export interface ShipmentNotificationRow {
  id: string;
  workspace_id: string;
  tracking_number: string | null;
  tracking_status: string | null;
  origin_carrier: string | null;
  destination_carrier: string | null;
  destination_country: string | null;
  email: string | null;
  order_numbers: string[];
  shipped_at: Date | null;
  expected_delivery_date: Date | null;
  address_first_name: string | null;
  address_last_name: string | null;
  address_city: string | null;
  address_country_iso2: string | null;
  status_title: string | null;
  status_code: string | null;
  workspace_title: string;
  default_tracking_page_id: string | null;
}

/** The shipment table's SQL for e-mail notifications. */
@Injectable()
export class ShipmentNotificationStore {
  constructor(private readonly db: DataSource) {}

  /**
   * The shipment's fields with its status, its workspace's title and default tracking page,
   * in one statement (on the caller's transaction when given).
   */
  async facts(runner: SqlRunner, id: string): Promise<ShipmentNotificationRow | undefined> {
    return queryOne<ShipmentNotificationRow>(
      runner,
      `SELECT s.id, s.workspace_id, s.tracking_number, s.tracking_status, s.origin_carrier,
              s.destination_carrier, s.destination_country, s.email, s.order_numbers, s.shipped_at,
              s.expected_delivery_date, s.address_first_name, s.address_last_name, s.address_city,
              s.address_country_iso2,
              ${statusFieldSql('title', 's.shipment_status_id')} AS status_title,
              ${statusFieldSql('code', 's.shipment_status_id')} AS status_code,
              ${workspaceTitleSql('s.workspace_id')} AS workspace_title,
              ${defaultTrackingPageIdSql('s.workspace_id')} AS default_tracking_page_id
         FROM shipment s
        WHERE s.id = $1`,
      [id],
    );
  }

  async workspaceOf(id: string): Promise<string | undefined> {
    const row = await queryOne<{ workspace_id: string }>(
      this.db,
      `SELECT workspace_id FROM shipment WHERE id = $1`,
      [id],
    );
    return row?.workspace_id;
  }
}
