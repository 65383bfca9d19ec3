import { Inject, Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { RATE_LIMIT_STORAGE } from '../../rate-limit/rate-limit.module';
import { isHostname, subdomainFormProblem } from '../subdomain';
import { TrackingPageLinksService } from '../tracking-page-links.service';
import { TrackingPageStore } from '../tracking-page-store';
import type { HomeSearch } from './home-search';
import { ShipmentPageReads } from './shipment-page.reads';

/** Searches one client address may make on one tracking page per window. */
export const HOME_SEARCHES_PER_WINDOW = 20;
export const HOME_SEARCH_WINDOW_MS = 60_000;
export const HOME_SEARCH_THROTTLER = 'tracking-home-search';

export interface HomePage {
  id: string;
  workspaceId: string;
  subdomain: string;
}

/**
 * The search of a tracking page's home: within the page's workspace only, rate-limited per
 * page and client address (the PostgreSQL limiter by default), and answering only with the
 * link of a shipment the customer proved to know (its tracking number, or an order number
 * with the order's e-mail or phone); anything else is the same "not found".
 */
@Injectable()
export class HomeSearchService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly links: TrackingPageLinksService,
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    private readonly pages: TrackingPageStore,
    private readonly reads: ShipmentPageReads,
  ) {}

  /** The enabled page at a subdomain or a verified custom domain, or null. */
  async pageAt(where: { subdomain?: string; domain?: string }): Promise<HomePage | null> {
    const subdomain =
      where.subdomain !== undefined && subdomainFormProblem(where.subdomain) === null
        ? where.subdomain
        : undefined;
    const domain =
      where.domain !== undefined && isHostname(where.domain) ? where.domain : undefined;
    if (subdomain === undefined && domain === undefined) return null;
    const row = await this.pages.enabledAt(
      this.dataSource,
      subdomain ?? null,
      domain?.toLowerCase() ?? null,
    );
    return row ? { id: row.id, workspaceId: row.workspace_id, subdomain: row.subdomain } : null;
  }

  /** Counts one search; the seconds to wait when over budget, else null. */
  async limited(page: HomePage, client: string): Promise<number | null> {
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(
      `${HOME_SEARCH_THROTTLER}:${page.id}|${client}`,
      HOME_SEARCH_WINDOW_MS,
      HOME_SEARCHES_PER_WINDOW,
      HOME_SEARCH_WINDOW_MS,
      HOME_SEARCH_THROTTLER,
    );
    return isBlocked ? Math.max(1, timeToBlockExpire) : null;
  }

  /** The link hash of the newest matching shipment on this page, or null. */
  async find(page: HomePage, search: HomeSearch): Promise<string | null> {
    const ids =
      search.kind === 'trackingNumber'
        ? await this.reads.byTrackingNumber(page.workspaceId, search.trackingNumber)
        : await this.reads.byOrder(page.workspaceId, search.orderNumber, search);
    if (ids.length === 0) return null;
    return this.links.hashFor(this.dataSource, page.workspaceId, page.id, ids[0]);
  }
}
