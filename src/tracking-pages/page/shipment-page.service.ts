import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { TrackingPageLinksService, type LinkedShipment } from '../tracking-page-links.service';
import { MESSAGES, type PageLanguage } from './i18n/messages';
import { brandOf, pageImage, type PageBrand } from './page-brand';
import { RemoteImages } from './remote-images';
import { TrackingPageStore } from '../tracking-page-store';
import { shipmentPageModel, type ShipmentPageModel } from './shipment-page.model';
import { ShipmentPageReads } from './shipment-page.reads';

export interface PageContext {
  lang: PageLanguage;
  timeZone: string;
  tzFixed: boolean;
  /** The origin the request came to (`http://host:port`): images served from it are ours. */
  origin: string;
}

/** What the public pages show, read from the database and shaped for the templates. */
@Injectable()
export class ShipmentPageService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly links: TrackingPageLinksService,
    private readonly config: AppConfig,
    private readonly remoteImages: RemoteImages,
    private readonly pages: TrackingPageStore,
    private readonly reads: ShipmentPageReads,
  ) {}

  private ownOrigins(ctx: PageContext): string[] {
    const origins = [ctx.origin];
    for (const url of [this.config.publicUrl, this.config.publicTrackingBaseUrl]) {
      try {
        if (url) origins.push(new URL(url).origin);
      } catch {
        // Config validation keeps these URLs well formed; a bad one just adds nothing.
      }
    }
    return origins;
  }

  /** The brand of a tracking page (builder colours, logo, title). */
  async brand(pageId: string, ctx: PageContext): Promise<PageBrand> {
    const row = await this.pages.brand(this.dataSource, pageId);
    if (!row) throw new Error(`tracking page ${pageId} vanished`);
    return brandOf({
      builder: row.builder ?? {},
      pageTitle: row.title ?? null,
      workspace: await this.reads.workspace(row.workspace_id),
      ownOrigins: this.ownOrigins(ctx),
      remoteImage: (url) => this.remoteImages.pathFor(row.workspace_id, url),
      defaultTitle: MESSAGES[ctx.lang].defaultTitle,
    });
  }

  /** The builder's default language of a page, for pages opened without `?lang=`. */
  async defaultLanguage(pageId: string): Promise<unknown> {
    return this.pages.defaultLanguage(this.dataSource, pageId);
  }

  async shipmentPage(
    linked: LinkedShipment,
    hash: string,
    ctx: PageContext,
    reviewOutcome: 'thanks' | 'invalid' | null,
  ): Promise<ShipmentPageModel> {
    const [view, extras, workspace, items, siblings] = await Promise.all([
      this.links.viewOf(linked),
      this.reads.shipmentExtras(linked.shipmentId),
      this.reads.workspace(linked.workspaceId),
      this.reads.items(linked.shipmentId),
      this.reads.siblings(linked.workspaceId, linked.shipmentId),
    ]);
    const s = view.shipment;
    const ownOrigins = this.ownOrigins(ctx);
    const [carriers, hashes] = await Promise.all([
      this.reads.carriers([s.originCarrier, s.destinationCarrier]),
      // Links of the order's other parcels on this page, made on first view like e-mail links.
      this.links.hashesFor(
        this.dataSource,
        linked.workspaceId,
        linked.trackingPageId,
        siblings.map((p) => p.shipmentId),
      ),
    ]);
    const fields = {
      sidebarField: linked.page.sidebarField,
      trackingNumberField: linked.page.trackingNumberField,
    };
    return shipmentPageModel({
      lang: ctx.lang,
      timeZone: ctx.timeZone,
      tzFixed: ctx.tzFixed,
      brand: brandOf({
        builder: linked.page.builder,
        pageTitle: linked.page.title,
        workspace,
        ownOrigins,
        remoteImage: (url) => this.remoteImages.pathFor(linked.workspaceId, url),
        defaultTitle: MESSAGES[ctx.lang].defaultTitle,
      }),
      hash,
      shipment: s,
      checkpoints: view.checkpoints,
      fields,
      extras,
      carriers,
      items,
      itemImage: (url) =>
        pageImage(url, ownOrigins, (u) => this.remoteImages.pathFor(linked.workspaceId, u)),
      siblings: siblings.map((p) => ({ ...p, hash: hashes.get(p.shipmentId)! })),
      reviewsEnabled: linked.reviewsEnabled,
      reviewOutcome,
    });
  }
}
