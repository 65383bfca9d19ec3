import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { NotFoundError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { LinkFilter } from './link-filter';
import type { SqlRunner } from '../database/query';
import { formatDateTime } from '../hydra/serialization/record-reader';
import { ShipmentPageStore } from '../shipments/shipment-page-store';
import { CheckpointPageStore } from '../tracking/checkpoints/checkpoint-page-store';
import { DropshipperSettings, normalizeDropshipperSettings } from './dropshipper-settings';
import { PublicCheckpoint, PublicShipment, publicTrackingView } from './public-tracking-view';
import { TrackingPageLinkStore } from './tracking-page-link-store';

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
    private readonly store: TrackingPageLinkStore,
    private readonly shipments: ShipmentPageStore,
    private readonly checkpointStore: CheckpointPageStore,
  ) {}

  /** The link of a page and shipment, created on first request. */
  async hashFor(
    em: SqlRunner,
    workspaceId: string,
    pageId: string,
    shipmentId: string,
  ): Promise<string> {
    const hash = randomBytes(32).toString('base64url');
    const inserted = await this.store.insert(em, { workspaceId, pageId, shipmentId, hash });
    if (inserted !== undefined) return inserted;
    const existing = await this.store.hashOf(em, pageId, shipmentId);
    if (existing === undefined) throw new Error(`link of ${pageId}/${shipmentId} vanished`);
    return existing;
  }

  /** The links of several shipments on one page, made where missing (by shipment id). */
  async hashesFor(
    em: SqlRunner,
    workspaceId: string,
    pageId: string,
    shipmentIds: string[],
  ): Promise<Map<string, string>> {
    if (shipmentIds.length === 0) return new Map();
    const rows = await this.store.hashesOf(em, pageId, shipmentIds);
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
    em: SqlRunner,
    workspaceId: string,
    filter: Pick<LinkFilter, 'email' | 'orderNumbers'>,
  ): Promise<string> {
    const id = await this.shipments.newestMatching(em, workspaceId, {
      email: filter.email ?? null,
      orderNumbers: filter.orderNumbers ?? null,
    });
    if (id === undefined) {
      throw ValidationError.of(
        filter.email !== undefined ? 'filter.email' : 'filter.orderNumbers',
        'No shipment of the workspace matches this filter.',
        ViolationCodes.invalid,
      );
    }
    return id;
  }

  /** PUBLIC_TRACKING_BASE_URL, else PUBLIC_URL, else the address the request came to. */
  linkOf(hash: string, origin: string): string {
    const base = this.config.publicTrackingBaseUrl ?? this.config.publicUrl ?? origin;
    return `${base.replace(/\/+$/, '')}/t/${hash}`;
  }

  /** The link's page and shipment; 404 for unknown hashes and disabled pages. */
  async resolve(hash: string, em: SqlRunner = this.dataSource): Promise<LinkedShipment> {
    if (!LINK_HASH.test(hash)) throw new NotFoundError();
    const row = await this.store.resolve(em, hash);
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
    const s = await this.shipments.publicFacts(linked.shipmentId);
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
      deliveryWindow: deliveryWindowOf(s.delivery_prediction),
      runningLate: s.attention_codes?.includes('late') ?? false,
    };
    const checkpoints = await this.checkpoints(linked.shipmentId);
    const view = publicTrackingView(shipment, checkpoints, linked.dropshipper);
    return {
      trackingPage: { ...linked.page, reviewsEnabled: linked.reviewsEnabled },
      shipment: { ...view.shipment, review: s.review, reviewTotalScore: s.review_total_score },
      checkpoints: view.checkpoints,
    };
  }

  /** The shipment's checkpoints, newest first. */
  private async checkpoints(shipmentId: string): Promise<PublicCheckpoint[]> {
    const rows = await this.checkpointStore.ofShipment(shipmentId);
    return rows.map((r) => ({
      checkpointDate: iso(r.checkpoint_date)!,
      status: r.status,
      info: r.info ?? null,
      location: r.location ?? null,
      countryIso2: r.country_iso2 ?? null,
      carrier: r.carrier ?? null,
    }));
  }
}

/** The window to show: only when it is ours (the carrier's own date is shown as it is). */
function deliveryWindowOf(
  p: { earliest?: string; latest?: string; basis?: { kind?: string } } | null,
): { earliest: string; latest: string } | null {
  if (!p || p.basis?.kind === 'carrier' || !p.earliest || !p.latest) return null;
  return { earliest: p.earliest, latest: p.latest };
}
