import type { DataSource, EntityManager } from 'typeorm';

type Sql = Pick<DataSource | EntityManager, 'query'>;

/** Most parcels and items one page lists (an order rarely has more). */
const MAX_PARCELS = 20;
const MAX_ITEMS = 50;

export interface PageShipmentExtras {
  orderNumbers: string[];
  customFields: Record<string, unknown>;
}

export interface PageWorkspace {
  title: string;
  /** Path of the workspace's uploaded logo (served by this app), or null. */
  logoPath: string | null;
}

export interface PageCarrier {
  code: string;
  name: string;
  trackingUrlTemplate: string | null;
}

export interface PageItem {
  name: string | null;
  sku: string | null;
  imageUrl: string | null;
  qty: number;
}

export interface SiblingParcel {
  shipmentId: string;
  trackingNumber: string | null;
  trackingStatus: string | null;
  shippedAt: Date | null;
  expectedDeliveryDate: Date | null;
  orderNumbers: string[];
  customFields: Record<string, unknown>;
}

/** The SQL of the public pages: what a page shows beyond the link's JSON view. */
export const shipmentPageQueries = {
  async shipmentExtras(sql: Sql, shipmentId: string): Promise<PageShipmentExtras> {
    const [row] = await sql.query(
      `SELECT order_numbers, custom_fields FROM shipment WHERE id = $1`,
      [shipmentId],
    );
    return { orderNumbers: row?.order_numbers ?? [], customFields: row?.custom_fields ?? {} };
  },

  async workspace(sql: Sql, workspaceId: string): Promise<PageWorkspace> {
    const [row] = await sql.query(
      `SELECT w.title, m.file_path FROM workspace w LEFT JOIN media m ON m.id = w.logo_id
        WHERE w.id = $1`,
      [workspaceId],
    );
    return { title: row?.title ?? '', logoPath: row?.file_path ?? null };
  },

  async carriers(sql: Sql, codes: Array<string | null>): Promise<Map<string, PageCarrier>> {
    const wanted = [...new Set(codes.filter((c): c is string => !!c))];
    if (wanted.length === 0) return new Map();
    const rows = await sql.query(
      `SELECT code, name, tracking_url_template FROM carrier WHERE code = ANY($1::text[])`,
      [wanted],
    );
    return new Map(
      rows.map((r: Record<string, string | null>) => [
        r.code,
        { code: r.code, name: r.name ?? r.code, trackingUrlTemplate: r.tracking_url_template },
      ]),
    );
  },

  /** The order items this shipment carries, with the quantity it carries. */
  async items(sql: Sql, shipmentId: string): Promise<PageItem[]> {
    const rows = await sql.query(
      `SELECT oi.product_name, oi.product_sku, oi.image_url, si.qty
         FROM shipment_item si JOIN order_item oi ON oi.id = si.order_item_id
        WHERE si.shipment_id = $1
        ORDER BY oi.created_at, oi.id LIMIT ${MAX_ITEMS}`,
      [shipmentId],
    );
    return rows.map((r: Record<string, unknown>) => ({
      name: (r.product_name as string | null) ?? null,
      sku: (r.product_sku as string | null) ?? null,
      imageUrl: (r.image_url as string | null) ?? null,
      qty: Number(r.qty),
    }));
  },

  /** The other shipments of this shipment's orders (linked orders, or shared order numbers). */
  async siblings(sql: Sql, workspaceId: string, shipmentId: string): Promise<SiblingParcel[]> {
    const rows = await sql.query(
      `SELECT s.id, s.tracking_number, s.tracking_status, s.shipped_at, s.expected_delivery_date,
              s.order_numbers, s.custom_fields
         FROM shipment s
        WHERE s.workspace_id = $1 AND s.id <> $2
          AND (s.id IN (SELECT so2.shipment_id FROM shipment_order so
                          JOIN shipment_order so2 ON so2.order_id = so.order_id
                         WHERE so.shipment_id = $2)
               OR s.order_numbers && (SELECT order_numbers FROM shipment
                                       WHERE id = $2 AND order_numbers <> '{}'))
        ORDER BY s.created_at, s.id LIMIT ${MAX_PARCELS}`,
      [workspaceId, shipmentId],
    );
    return rows.map((r: Record<string, any>) => ({
      shipmentId: r.id,
      trackingNumber: r.tracking_number,
      trackingStatus: r.tracking_status,
      shippedAt: r.shipped_at,
      expectedDeliveryDate: r.expected_delivery_date,
      orderNumbers: r.order_numbers ?? [],
      customFields: r.custom_fields ?? {},
    }));
  },

  /** The enabled page answering at a subdomain, or at a verified custom domain. */
  async pageAt(
    sql: Sql,
    where: { subdomain?: string; domain?: string },
  ): Promise<{ id: string; workspaceId: string; subdomain: string } | null> {
    const rows = await sql.query(
      `SELECT id, workspace_id, subdomain FROM tracking_page
        WHERE enabled AND (subdomain = $1 OR (domain_enabled AND lower(domain) = $2))
        ORDER BY (subdomain = $1) DESC LIMIT 1`,
      [where.subdomain ?? null, where.domain?.toLowerCase() ?? null],
    );
    return rows[0]
      ? { id: rows[0].id, workspaceId: rows[0].workspace_id, subdomain: rows[0].subdomain }
      : null;
  },

  /** Shipments of a workspace with this tracking number, newest first. */
  async byTrackingNumber(sql: Sql, workspaceId: string, trackingNumber: string): Promise<string[]> {
    const rows = await sql.query(
      `SELECT id FROM shipment WHERE workspace_id = $1 AND tracking_number = ANY($2::text[])
        ORDER BY created_at DESC, id LIMIT ${MAX_PARCELS}`,
      [workspaceId, [...new Set([trackingNumber, trackingNumber.toUpperCase()])]],
    );
    return rows.map((r: { id: string }) => r.id);
  },

  /**
   * Shipments of an order whose e-mail or phone the customer gave: an order of the workspace
   * with that number (its e-mail or phone), or shipments carrying the order number (theirs).
   * Phones match on their last digits (`phoneTail`: up to nine, seven at least), so that
   * `+49 151 2345 6789` and `0151 23456789` are the same number.
   */
  async byOrder(
    sql: Sql,
    workspaceId: string,
    orderNumber: string,
    contact: { email: string | null; phoneTail: string | null },
  ): Promise<string[]> {
    const rows = await sql.query(
      `WITH matching_order AS (
         SELECT o.id FROM "order" o
          WHERE o.workspace_id = $1 AND o.order_number = $2
            AND ((o.email IS NOT NULL AND lower(o.email) = lower($3))
                 OR ($4::text IS NOT NULL AND right(regexp_replace(coalesce(o.phone_number, ''), '\\D', '', 'g'), length($4)) = $4))
       )
       SELECT s.id, s.created_at FROM shipment s
        WHERE s.workspace_id = $1
          AND (s.id IN (SELECT so.shipment_id FROM shipment_order so
                         WHERE so.order_id IN (SELECT id FROM matching_order))
               OR ($2 = ANY(s.order_numbers)
                   AND ((s.email IS NOT NULL AND lower(s.email) = lower($3))
                        OR ($4::text IS NOT NULL AND right(regexp_replace(coalesce(s.phone_number, ''), '\\D', '', 'g'), length($4)) = $4))))
        ORDER BY s.created_at DESC, s.id LIMIT ${MAX_PARCELS}`,
      [workspaceId, orderNumber, contact.email, contact.phoneTail],
    );
    return rows.map((r: { id: string }) => r.id);
  },
};
