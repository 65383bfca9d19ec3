import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, queryOne, execute, type SqlRunner } from '../database/query';
import { ordersMatchingContactSql, ordersWithEmailSql } from '../orders/order-page-store';

/** What a public view (tracking page, widget) may show of a shipment: no contact data. */
export interface PublicShipmentRow {
  id: string;
  tracking_number: string | null;
  tracking_status: string | null;
  origin_carrier: string | null;
  destination_carrier: string | null;
  origin_country: string | null;
  origin_country_iso2: string | null;
  destination_country: string | null;
  destination_country_iso2: string | null;
  shipped_at: Date | null;
  expected_delivery_date: Date | null;
  last_status_update: Date | null;
  days_in_transit: number | null;
  review: string | null;
  review_total_score: number | null;
  created_at: Date;
  /** The delivery window (src/predictions) as stored, or null. */
  delivery_prediction: { earliest?: string; latest?: string; basis?: { kind?: string } } | null;
  attention_codes: string[];
}

const PUBLIC_COLUMNS = `id, tracking_number, tracking_status, origin_carrier, destination_carrier,
  origin_country, origin_country_iso2, destination_country, destination_country_iso2, shipped_at,
  expected_delivery_date, last_status_update, days_in_transit, review, review_total_score, created_at,
  delivery_prediction, attention_codes`;

/** A tracking page's extras: the order numbers and custom fields it may show. */
export interface ShipmentExtrasRow {
  order_numbers: string[] | null;
  custom_fields: Record<string, unknown> | null;
}

/** Another parcel of the same order, as the tracking page lists it. */
export interface SiblingShipmentRow extends ShipmentExtrasRow {
  id: string;
  tracking_number: string | null;
  tracking_status: string | null;
  shipped_at: Date | null;
  expected_delivery_date: Date | null;
}

/** What a customer gave to find an order's shipments (home search). */
export interface OrderContact {
  email: string | null;
  /** The last digits of a phone number. */
  phoneTail: string | null;
}

/**
 * The shipment table's SQL for the public views of shipments: tracking pages (their links,
 * reviews, home search) and widgets. Reads without a runner use the pool, as those public
 * requests have no transaction.
 */
@Injectable()
export class ShipmentPageStore {
  constructor(private readonly db: DataSource) {}

  async publicFacts(id: string): Promise<PublicShipmentRow | undefined> {
    return queryOne<PublicShipmentRow>(
      this.db,
      `SELECT ${PUBLIC_COLUMNS} FROM shipment WHERE id = $1`,
      [id],
    );
  }

  /** Several shipments' public facts, newest first. */
  async publicFactsOf(ids: readonly string[]): Promise<PublicShipmentRow[]> {
    if (ids.length === 0) return [];
    return query<PublicShipmentRow>(
      this.db,
      `SELECT ${PUBLIC_COLUMNS} FROM shipment WHERE id = ANY($1::uuid[]) ORDER BY created_at DESC, id`,
      [ids],
    );
  }

  async extras(id: string): Promise<ShipmentExtrasRow | undefined> {
    return queryOne<ShipmentExtrasRow>(
      this.db,
      `SELECT order_numbers, custom_fields FROM shipment WHERE id = $1`,
      [id],
    );
  }

  /** The other shipments of this shipment's orders (linked orders, or shared order numbers). */
  async siblings(
    workspaceId: string,
    shipmentId: string,
    limit: number,
  ): Promise<SiblingShipmentRow[]> {
    return query<SiblingShipmentRow>(
      this.db,
      `SELECT s.id, s.tracking_number, s.tracking_status, s.shipped_at, s.expected_delivery_date,
              s.order_numbers, s.custom_fields
         FROM shipment s
        WHERE s.workspace_id = $1 AND s.id <> $2
          AND (s.id IN (SELECT so2.shipment_id FROM shipment_order so
                          JOIN shipment_order so2 ON so2.order_id = so.order_id
                         WHERE so.shipment_id = $2)
               OR s.order_numbers && (SELECT order_numbers FROM shipment
                                       WHERE id = $2 AND order_numbers <> '{}'))
        ORDER BY s.created_at, s.id LIMIT ${Math.trunc(limit)}`,
      [workspaceId, shipmentId],
    );
  }

  /** Ids of the workspace's shipments with one of these tracking numbers, newest first. */
  async byTrackingNumbers(
    workspaceId: string,
    numbers: readonly string[],
    limit: number,
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.db,
      `SELECT id FROM shipment WHERE workspace_id = $1 AND tracking_number = ANY($2::text[])
        ORDER BY created_at DESC, id LIMIT ${Math.trunc(limit)}`,
      [workspaceId, numbers],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Ids of the shipments of an order whose e-mail or phone the customer gave, newest first: an
   * order of the workspace with that number and contact (linked shipments), or shipments
   * carrying the order number with that contact themselves. Phones compare on their last
   * digits (`phoneTail`).
   */
  async byOrderContact(
    workspaceId: string,
    orderNumber: string,
    contact: OrderContact,
    limit: number,
  ): Promise<string[]> {
    const orders = ordersMatchingContactSql({
      workspace: '$1',
      orderNumber: '$2',
      email: '$3',
      phoneTail: '$4',
    });
    const rows = await query<{ id: string }>(
      this.db,
      `WITH matching_order AS (${orders})
       SELECT s.id, s.created_at FROM shipment s
        WHERE s.workspace_id = $1
          AND (s.id IN (SELECT so.shipment_id FROM shipment_order so
                         WHERE so.order_id IN (SELECT id FROM matching_order))
               OR ($2 = ANY(s.order_numbers)
                   AND ((s.email IS NOT NULL AND lower(s.email) = lower($3))
                        OR ($4::text IS NOT NULL AND right(regexp_replace(coalesce(s.phone_number, ''), '\\D', '', 'g'), length($4)) = $4))))
        ORDER BY s.created_at DESC, s.id LIMIT ${Math.trunc(limit)}`,
      [workspaceId, orderNumber, contact.email, contact.phoneTail],
    );
    return rows.map((r) => r.id);
  }

  /** Ids of the shipments linked to the workspace's order with that number and e-mail. */
  async byOrderEmail(
    workspaceId: string,
    orderNumber: string,
    email: string,
    limit: number,
  ): Promise<string[]> {
    const orders = ordersWithEmailSql({ workspace: '$1', orderNumber: '$2', email: '$3' });
    const rows = await query<{ id: string }>(
      this.db,
      `SELECT s.id FROM (${orders}) o
         JOIN shipment_order so ON so.order_id = o.id
         JOIN shipment s ON s.id = so.shipment_id
        ORDER BY s.created_at DESC, s.id LIMIT ${Math.trunc(limit)}`,
      [workspaceId, orderNumber, email],
    );
    return rows.map((r) => r.id);
  }

  async trackingStatus(id: string): Promise<string | null> {
    const row = await queryOne<{ tracking_status: string | null }>(
      this.db,
      `SELECT tracking_status FROM shipment WHERE id = $1`,
      [id],
    );
    return row?.tracking_status ?? null;
  }

  /** The shipment's `review` (the review's IRI) and `reviewTotalScore`. */
  async recordReview(runner: SqlRunner, id: string, review: string, total: number): Promise<void> {
    await execute(
      runner,
      `UPDATE shipment SET review = $2, review_total_score = $3, updated_at = now() WHERE id = $1`,
      [id, review, total],
    );
  }

  /**
   * The newest shipment of the workspace with that customer e-mail (any case; null: any) and
   * one of those order numbers (null: any).
   */
  async newestMatching(
    runner: SqlRunner,
    workspaceId: string,
    filter: { email: string | null; orderNumbers: readonly string[] | null },
  ): Promise<string | undefined> {
    const row = await queryOne<{ id: string }>(
      runner,
      `SELECT id FROM shipment
        WHERE workspace_id = $1
          AND ($2::text IS NULL OR lower(email) = lower($2))
          AND ($3::text[] IS NULL OR order_numbers && $3::text[])
        ORDER BY created_at DESC, id LIMIT 1`,
      [workspaceId, filter.email, filter.orderNumbers],
    );
    return row?.id;
  }

  async inWorkspace(runner: SqlRunner, id: string, workspaceId: string): Promise<boolean> {
    const rows = await query(runner, `SELECT 1 FROM shipment WHERE id = $1 AND workspace_id = $2`, [
      id,
      workspaceId,
    ]);
    return rows.length > 0;
  }

  /** A shipment of the workspace with exactly this tracking number. */
  async withTrackingNumber(
    runner: SqlRunner,
    workspaceId: string,
    trackingNumber: string,
  ): Promise<string | undefined> {
    const row = await queryOne<{ id: string }>(
      runner,
      `SELECT id FROM shipment WHERE workspace_id = $1 AND tracking_number = $2`,
      [workspaceId, trackingNumber],
    );
    return row?.id;
  }
}
