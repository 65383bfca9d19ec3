import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/** A link with the page it opens (enabled pages only). */
export interface LinkedPageRow {
  id: string;
  workspace_id: string;
  tracking_page_id: string;
  shipment_id: string;
  reviews_enabled: boolean;
  title: string | null;
  subdomain: string;
  domain: string | null;
  builder: unknown;
  custom_theme_id: string | null;
  dropshipper_settings: Record<string, unknown> | null;
  sidebar_field: string | null;
  tracking_number_field: string | null;
}

/** A new link of a page and shipment. */
export interface NewLink {
  workspaceId: string;
  pageId: string;
  shipmentId: string;
  hash: string;
}

/** The tracking_page_link table's SQL; every method takes the caller's runner. */
@Injectable()
export class TrackingPageLinkStore {
  /** Inserts the link unless the page and shipment have one; its hash when inserted. */
  async insert(runner: SqlRunner, link: NewLink): Promise<string | undefined> {
    const row = await queryOne<{ hash: string }>(
      runner,
      `INSERT INTO tracking_page_link (workspace_id, tracking_page_id, shipment_id, hash)
       VALUES ($1, $2, $3, $4) ON CONFLICT (tracking_page_id, shipment_id) DO NOTHING RETURNING hash`,
      [link.workspaceId, link.pageId, link.shipmentId, link.hash],
    );
    return row?.hash;
  }

  async hashOf(runner: SqlRunner, pageId: string, shipmentId: string): Promise<string | undefined> {
    const row = await queryOne<{ hash: string }>(
      runner,
      `SELECT hash FROM tracking_page_link WHERE tracking_page_id = $1 AND shipment_id = $2`,
      [pageId, shipmentId],
    );
    return row?.hash;
  }

  /** The existing links of these shipments on the page. */
  async hashesOf(
    runner: SqlRunner,
    pageId: string,
    shipmentIds: readonly string[],
  ): Promise<Array<{ shipment_id: string; hash: string }>> {
    return query<{ shipment_id: string; hash: string }>(
      runner,
      `SELECT shipment_id, hash FROM tracking_page_link
        WHERE tracking_page_id = $1 AND shipment_id = ANY($2::uuid[])`,
      [pageId, shipmentIds],
    );
  }

  /** The link with this hash and its page, when the page is enabled. */
  async resolve(runner: SqlRunner, hash: string): Promise<LinkedPageRow | undefined> {
    return queryOne<LinkedPageRow>(
      runner,
      `SELECT l.id, l.workspace_id, l.tracking_page_id, l.shipment_id, p.reviews_enabled, p.title, p.subdomain,
              p.domain, p.builder, p.custom_theme_id, p.dropshipper_settings, p.sidebar_field,
              p.tracking_number_field
         FROM tracking_page_link l JOIN tracking_page p ON p.id = l.tracking_page_id
        WHERE l.hash = $1 AND p.enabled`,
      [hash],
    );
  }
}
