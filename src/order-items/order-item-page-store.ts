import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query } from '../database/query';
import { carriedItemsSql } from '../shipment-items/shipment-item-page-store';

/** An order item a shipment carries, as its tracking page lists it. */
export interface CarriedItemRow {
  product_name: string | null;
  product_sku: string | null;
  image_url: string | null;
  qty: number;
}

/** The order_item table's SQL for the public tracking page. */
@Injectable()
export class OrderItemPageStore {
  constructor(private readonly db: DataSource) {}

  /** The order items the shipment carries, with the quantity it carries, in order. */
  async carriedBy(shipmentId: string, limit: number): Promise<CarriedItemRow[]> {
    return query<CarriedItemRow>(
      this.db,
      `SELECT oi.product_name, oi.product_sku, oi.image_url, c.qty
         FROM (${carriedItemsSql('$1')}) c JOIN order_item oi ON oi.id = c.order_item_id
        ORDER BY oi.created_at, oi.id LIMIT ${Math.trunc(limit)}`,
      [shipmentId],
    );
  }
}
