import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { NotFoundError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { LinkFilter } from './link-filter';
import { formatDateTime } from '../hydra/serialization/record-reader';
import { DropshipperSettings, normalizeDropshipperSettings } from './dropshipper-settings';
import { PublicCheckpoint, PublicShipment, publicTrackingView } from './public-tracking-view';

export type PublicLinkView = {
  trackingPage: LinkedShipment['page'] & { reviewsEnabled: boolean };
  shipment: PublicShipment & { review: string | null; reviewTotalScore: number | null };
  checkpoints: PublicCheckpoint[];
};

export const LINK_HASH = /^[A-Za-z0-9_-]{20,100}$/;

export interface LinkedShipment {
  linkId: string;
  workspaceId: string;
  trackingPageId: string;
  shipmentId: string;
  reviewsEnabled: boolean;
  page: {
    title: string | null;
    subdomain: string;
    domain: string | null;
    builder: unknown;
    customThemeId: string | null;
    sidebarField: string | null;
    trackingNumberField: string | null;
  };
  dropshipper: DropshipperSettings;
}

const iso = (v: unknown) =>
  v == null ? null : formatDateTime(v instanceof Date ? v : new Date(String(v)));

/**
 * Links of public tracking pages: `<base>/t/<hash>`, the hash 32 random bytes (unguessable,
 * stored, one per page and shipment), and what the page shows for it.
 */
@Injectable()
export class TrackingPageLinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** The link of a page and shipment, created on first request. */
  async hashFor(
    em: EntityManager,
    workspaceId: string,
    pageId: string,
    shipmentId: string,
  ): Promise<string> {
    const inserted = await em.query(
      `INSERT INTO tracking_page_link (workspace_id, tracking_page_id, shipment_id, hash)
       VALUES ($1, $2, $3, $4) ON CONFLICT (tracking_page_id, shipment_id) DO NOTHING RETURNING hash`,
      [workspaceId, pageId, shipmentId, randomBytes(32).toString('base64url')],
    );
    if (inserted.length) return inserted[0].hash;
    const [existing] = await em.query(
      `SELECT hash FROM tracking_page_link WHERE tracking_page_id = $1 AND shipment_id = $2`,
      [pageId, shipmentId],
    );
    return existing.hash;
  }

  /** The links of several shipments on one page, made where missing (by shipment id). */
  async hashesFor(
    em: EntityManager,
    workspaceId: string,
    pageId: string,
    shipmentIds: string[],
  ): Promise<Map<string, string>> {
    if (shipmentIds.length === 0) return new Map();
    const rows: Array<{ shipment_id: string; hash: string }> = await em.query(
      `SELECT shipment_id, hash FROM tracking_page_link
        WHERE tracking_page_id = $1 AND shipment_id = ANY($2::uuid[])`,
      [pageId, shipmentIds],
    );
    const hashes = new Map(rows.map((r) => [r.shipment_id, r.hash]));
    for (const id of shipmentIds)
      if (!hashes.has(id)) hashes.set(id, await this.hashFor(em, workspaceId, pageId, id));
    return hashes;
  }

  /**
   * The shipment a link filtered by `email` and/or `orderNumbers` shows: the newest shipment
   * of the workspace with that customer e-mail (any case) and one of those order numbers; a
   * violation naming the filter when there is none.
   */
  async shipmentMatching(
    em: EntityManager,
    workspaceId: string,
    filter: Pick<LinkFilter, 'email' | 'orderNumbers'>,
  ): Promise<string> {
    const [row] = await em.query(
      `SELECT id FROM shipment
        WHERE workspace_id = $1
          AND ($2::text IS NULL OR lower(email) = lower($2))
          AND ($3::text[] IS NULL OR order_numbers && $3::text[])
        ORDER BY created_at DESC, id LIMIT 1`,
      [workspaceId, filter.email ?? null, filter.orderNumbers ?? null],
    );
    if (!row) {
      throw ValidationError.of(
        filter.email !== undefined ? 'filter.email' : 'filter.orderNumbers',
        'No shipment of the workspace matches this filter.',
        ViolationCodes.invalid,
      );
    }
    return row.id;
  }

  /** PUBLIC_TRACKING_BASE_URL, else PUBLIC_URL, else the address the request came to. */
  linkOf(hash: string, origin: string): string {
    const base = this.config.publicTrackingBaseUrl ?? this.config.publicUrl ?? origin;
    return `${base.replace(/\/+$/, '')}/t/${hash}`;
  }

  /** The link's page and shipment; 404 for unknown hashes and disabled pages. */
  async resolve(
    hash: string,
    em: EntityManager | DataSource = this.dataSource,
  ): Promise<LinkedShipment> {
    if (!LINK_HASH.test(hash)) throw new NotFoundError();
    const [row] = await em.query(
      `SELECT l.id, l.workspace_id, l.tracking_page_id, l.shipment_id, p.reviews_enabled, p.title, p.subdomain,
              p.domain, p.builder, p.custom_theme_id, p.dropshipper_settings, p.sidebar_field,
              p.tracking_number_field
         FROM tracking_page_link l JOIN tracking_page p ON p.id = l.tracking_page_id
        WHERE l.hash = $1 AND p.enabled`,
      [hash],
    );
    if (!row) throw new NotFoundError();
    return {
      linkId: row.id,
      workspaceId: row.workspace_id,
      trackingPageId: row.tracking_page_id,
      shipmentId: row.shipment_id,
      reviewsEnabled: row.reviews_enabled,
      page: {
        title: row.title,
        subdomain: row.subdomain,
        domain: row.domain,
        builder: row.builder,
        customThemeId: row.custom_theme_id,
        sidebarField: row.sidebar_field,
        trackingNumberField: row.tracking_number_field,
      },
      dropshipper: normalizeDropshipperSettings(row.dropshipper_settings ?? {}).value,
    };
  }

  /** The public view: page presentation, shipment tracking facts, checkpoints (newest first). */
  async view(hash: string): Promise<PublicLinkView> {
    return this.viewOf(await this.resolve(hash));
  }

  /** The public view of a resolved link. */
  async viewOf(linked: LinkedShipment): Promise<PublicLinkView> {
    const [s] = await this.dataSource.query(
      `SELECT tracking_number, tracking_status, origin_carrier, destination_carrier, origin_country,
              origin_country_iso2, destination_country, destination_country_iso2, shipped_at,
              expected_delivery_date, last_status_update, days_in_transit, review, review_total_score, created_at
         FROM shipment WHERE id = $1`,
      [linked.shipmentId],
    );
    if (!s) throw new NotFoundError();
    const shipment: PublicShipment = {
      trackingNumber: s.tracking_number,
      trackingStatus: s.tracking_status,
      originCarrier: s.origin_carrier,
      destinationCarrier: s.destination_carrier,
      originCountry: s.origin_country,
      originCountryIso2: s.origin_country_iso2,
      destinationCountry: s.destination_country,
      destinationCountryIso2: s.destination_country_iso2,
      shippedAt: iso(s.shipped_at),
      expectedDeliveryDate: iso(s.expected_delivery_date),
      lastStatusUpdate: iso(s.last_status_update),
      daysInTransit: s.days_in_transit,
      createdAt: iso(s.created_at)!,
    };
    const checkpoints = await this.checkpoints(linked.shipmentId);
    const view = publicTrackingView(shipment, checkpoints, linked.dropshipper);
    return {
      trackingPage: { ...linked.page, reviewsEnabled: linked.reviewsEnabled },
      shipment: { ...view.shipment, review: s.review, reviewTotalScore: s.review_total_score },
      checkpoints: view.checkpoints,
    };
  }

  /** Checkpoints from the tracking engine's table, when it exists. */
  private async checkpoints(shipmentId: string): Promise<PublicCheckpoint[]> {
    const [{ exists }] = await this.dataSource.query(
      `SELECT to_regclass('tracking_checkpoint') IS NOT NULL AS exists`,
    );
    if (!exists) return [];
    const rows = await this.dataSource.query(
      `SELECT checkpoint_date, status, info, location, country_iso2, carrier
         FROM tracking_checkpoint WHERE shipment_id = $1 ORDER BY checkpoint_date DESC, id`,
      [shipmentId],
    );
    return rows.map((r: Record<string, unknown>) => ({
      checkpointDate: iso(r.checkpoint_date)!,
      status: r.status as string,
      info: (r.info as string | null) ?? null,
      location: (r.location as string | null) ?? null,
      countryIso2: (r.country_iso2 as string | null) ?? null,
      carrier: (r.carrier as string | null) ?? null,
    }));
  }
}
