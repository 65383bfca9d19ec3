import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '../database/query';
import type { Principal } from '../access/principal';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import { typeError } from '../hydra/write/denormalizer';
import { ShipmentPageStore } from '../shipments/shipment-page-store';
import { Shipment } from '../shipments/shipment.entity';
import { parseLinkFilter } from './link-filter';
import type { GenerateLinkInput } from './tracking-pages.input';
import { TrackingPage } from './tracking-page.entity';
import { TrackingPageLinksService } from './tracking-page-links.service';
import { TrackingPageStore } from './tracking-page-store';

/** Most shipments one bulk request links. */
const MAX_BULK = 1000;

type Page = { id: string; workspaceId: string };

/**
 * Generates tracking page links for a page and shipments of its workspace. The caller's write
 * access to the page's workspace was checked by the action's locator; a page or shipment the
 * caller cannot see is a 422 violation, as the reference answers.
 */
@Injectable()
export class TrackingPageLinkGenerator {
  constructor(
    private readonly api: HydraApi,
    private readonly links: TrackingPageLinksService,
    private readonly dataSource: DataSource,
    private readonly pages: TrackingPageStore,
    private readonly shipments: ShipmentPageStore,
  ) {}

  /**
   * One link, for `filter.id`, the newest shipment matching `filter.email` and/or
   * `filter.orderNumbers` (the WooCommerce plugin's link for an order's customer), or
   * `trackingNumber`.
   */
  async one(principal: Principal, input: GenerateLinkInput, origin: string): Promise<string> {
    const page = await this.visiblePage(principal, input.trackingPageId);
    const filter = parseLinkFilter(input.filter);
    const ids = filter.id === undefined ? [] : [filter.id].flat();
    if (ids.length > 1) throw typeError('filter.id', 'string', ids);
    return this.dataSource.transaction(async (em) => {
      const shipmentId = ids.length
        ? await this.shipment(em, principal, page, ids[0], 'filter.id')
        : filter.email || filter.orderNumbers
          ? await this.links.shipmentMatching(em, page.workspaceId, filter)
          : await this.byTrackingNumber(em, page, input.trackingNumber);
      return this.links.linkOf(
        await this.links.hashFor(em, page.workspaceId, page.id, shipmentId),
        origin,
      );
    });
  }

  /** Links for every shipment of `filter.id`, all or none (the violations of every bad one). */
  async many(
    principal: Principal,
    input: GenerateLinkInput,
    origin: string,
  ): Promise<Array<{ id: string; link: string }>> {
    const page = await this.visiblePage(principal, input.trackingPageId);
    const id = parseLinkFilter(input.filter).id;
    const ids = id === undefined ? [] : [id].flat();
    if (ids.length === 0)
      throw ValidationError.of(
        'filter.id',
        'This value should not be blank.',
        ViolationCodes.notBlank,
      );
    if (ids.length > MAX_BULK)
      throw ValidationError.of(
        'filter.id',
        `This collection should contain ${MAX_BULK} elements or less.`,
        ViolationCodes.tooLong,
      );
    return this.dataSource.transaction(async (em) => {
      const out: Array<{ id: string; link: string }> = [];
      const violations: Violation[] = [];
      for (const [i, raw] of ids.entries()) {
        try {
          const id = await this.shipment(em, principal, page, raw, `filter.id[${i}]`);
          const hash = await this.links.hashFor(em, page.workspaceId, page.id, id);
          out.push({ id, link: this.links.linkOf(hash, origin) });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          violations.push(...error.violations);
        }
      }
      if (violations.length) throw new ValidationError(violations);
      return out;
    });
  }

  private async visiblePage(principal: Principal, raw: string): Promise<Page> {
    const id = await this.api.data.resolveReference(
      this.api.resource(TrackingPage),
      principal,
      raw,
    );
    if (!id) throw ValidationError.of('trackingPageId', `Item not found for "${raw}".`);
    const workspaceId = await this.pages.workspaceOf(this.dataSource, id);
    if (workspaceId === undefined)
      throw ValidationError.of('trackingPageId', `Item not found for "${raw}".`);
    return { id, workspaceId };
  }

  /** A shipment the caller sees, in the page's workspace; a violation at `path` otherwise. */
  private async shipment(
    em: SqlRunner,
    principal: Principal,
    page: Page,
    raw: string,
    path: string,
  ): Promise<string> {
    const id = identifierFrom(raw);
    const visible = id
      ? await this.api.data.resolveReference(this.api.resource(Shipment), principal, id)
      : null;
    if (!visible || !(await this.shipments.inWorkspace(em, visible, page.workspaceId)))
      throw ValidationError.of(path, `Item not found for "/shipments/${id ?? raw}".`);
    return visible;
  }

  private async byTrackingNumber(
    em: SqlRunner,
    page: Page,
    trackingNumber: string | null | undefined,
  ): Promise<string> {
    if (!trackingNumber)
      throw ValidationError.of(
        'filter.id',
        'This value should not be blank.',
        ViolationCodes.notBlank,
      );
    const id = await this.shipments.withTrackingNumber(em, page.workspaceId, trackingNumber.trim());
    if (id === undefined)
      throw ValidationError.of(
        'trackingNumber',
        `No shipment has the tracking number "${trackingNumber}".`,
      );
    return id;
  }
}

/** `filter.id`: one id or IRI, or a list of them; 400 for other types. */
