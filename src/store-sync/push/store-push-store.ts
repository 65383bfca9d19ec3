import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../../database/query';

/**
 * The store_sync_push table's SQL: the fulfillment event statuses each Shopify fulfillment was
 * sent (or found to have), so a fulfillment never gets one status twice and the first
 * in-transit is the pickup (rules/shopify-events.ts).
 */
@Injectable()
export class StorePushStore {
  async sentStatuses(
    runner: SqlRunner,
    workflowId: string,
    storeShipmentId: string,
  ): Promise<string[]> {
    const rows = await query<{ status: string }>(
      runner,
      `SELECT status FROM store_sync_push WHERE workflow_id = $1 AND store_shipment_id = $2`,
      [workflowId, storeShipmentId],
    );
    return rows.map((r) => r.status);
  }

  async recordSent(
    runner: SqlRunner,
    workflowId: string,
    storeShipmentId: string,
    status: string,
  ): Promise<void> {
    await query(
      runner,
      `INSERT INTO store_sync_push (workflow_id, store_shipment_id, status) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [workflowId, storeShipmentId, status],
    );
  }
}
