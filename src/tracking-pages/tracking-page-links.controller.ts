import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { Principal, canWriteWorkspace } from '../access/principal';
import { Public } from '../access/public.decorator';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ResourceController } from '../hydra/controller/resource-controller';
import {
  ForbiddenError,
  NotFoundError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../hydra/errors/api-errors';
import { identifierFrom } from '../hydra/filters/filter';
import { typeError } from '../hydra/write/denormalizer';
import { Shipment } from '../shipments/shipment.entity';
import { sendAction } from './action-response';
import { HomeSite } from './page/home-site';
import { parseReviewForm, reviewFormRedirect } from './page/review-form';
import { Review } from './review.entity';
import { ReviewsService } from './reviews.service';
import { TrackingPage } from './tracking-page.entity';
import { TrackingPageLinksService } from './tracking-page-links.service';
import { parseLinkFilter } from './link-filter';

/** Most shipments one bulk request links. */
const MAX_BULK = 1000;

/** GET /reviews, GET /reviews/{id}. */
export class ReviewsController extends ResourceController(Review) {}

/**
 * Tracking page links: generated for a page and a shipment of the same workspace, served to
 * anyone holding the link (JSON at /public/tracking_page_links/{hash}; the page at /t/{hash}
 * is page/tracking-site.controller.ts), and reviews posted through them (JSON, or the page's
 * form).
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class TrackingPageLinksController {
  constructor(
    private readonly api: HydraApi,
    private readonly links: TrackingPageLinksService,
    private readonly reviews: ReviewsService,
    private readonly dataSource: DataSource,
    private readonly site: HomeSite,
  ) {}

  /**
   * Body: `trackingPageId`, `filter: {id: <shipment id>}`, `{email}` or `{orderNumbers}` (or
   * `trackingNumber`). 201 `{link}`.
   */
  @Post('/generate_tracking_page_link')
  @HttpCode(201)
  async generate(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const page = await this.visiblePage(principal, body.trackingPageId);
    const filter = parseLinkFilter(body.filter);
    const trackingNumber = body.trackingNumber;
    if (
      trackingNumber !== undefined &&
      trackingNumber !== null &&
      typeof trackingNumber !== 'string'
    )
      throw typeError('trackingNumber', 'string', trackingNumber);
    const ids = filter.id === undefined ? [] : [filter.id].flat();
    if (ids.length > 1) throw typeError('filter.id', 'string', ids);
    const link = await this.dataSource.transaction(async (em) => {
      const shipmentId = ids.length
        ? await this.shipment(em, principal, page, ids[0], 'filter.id')
        : filter.email || filter.orderNumbers
          ? await this.links.shipmentMatching(em, page.workspaceId, filter)
          : await this.byTrackingNumber(em, page, trackingNumber as string | null | undefined);
      return this.links.linkOf(
        await this.links.hashFor(em, page.workspaceId, page.id, shipmentId),
        req,
      );
    });
    sendAction(this.api.responder, req, res, 'TrackingPageLink', { link }, 201);
  }

  /** Body: `trackingPageId`, `filter: {id: [<shipment ids>]}`. 201 `{links: [{id, link}]}`. */
  @Post('/generate_tracking_page_links')
  @HttpCode(201)
  async generateMany(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const page = await this.visiblePage(principal, body.trackingPageId);
    const filter = this.filter(body.filter);
    const ids = filter.id === undefined ? [] : [filter.id].flat();
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
    const links = await this.dataSource.transaction(async (em) => {
      const out: Array<{ id: string; link: string }> = [];
      const violations: Violation[] = [];
      for (const [i, raw] of ids.entries()) {
        try {
          const id = await this.shipment(em, principal, page, raw, `filter.id[${i}]`);
          out.push({
            id,
            link: this.links.linkOf(
              await this.links.hashFor(em, page.workspaceId, page.id, id),
              req,
            ),
          });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          violations.push(...error.violations);
        }
      }
      if (violations.length) throw new ValidationError(violations);
      return out;
    });
    sendAction(this.api.responder, req, res, 'TrackingPageLinks', { links }, 201);
  }

  @Public()
  @Get('/public/tracking_page_links/:hash')
  async view(
    @Param('hash') hash: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    sendAction(this.api.responder, req, res, 'PublicTrackingPage', await this.links.view(hash));
  }

  @Public()
  @Post('/public/tracking_page_links/:hash/reviews')
  @HttpCode(201)
  async review(
    @Param('hash') hash: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (req.is('application/x-www-form-urlencoded')) return this.reviewForm(hash, req, res);
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const id = await this.reviews.submit(hash, this.api.body(req));
    res.setHeader('Location', `/reviews/${id}`);
    sendAction(this.api.responder, req, res, 'PostReviewResponse', { id }, 201, `/reviews/${id}`);
  }

  /**
   * The review form of the tracking page (works without JavaScript): `score` 1 to 5 and
   * `comment`, then back to the page (303) saying thanks, or that the rating was missing.
   */
  private async reviewForm(hash: string, req: Request, res: Response): Promise<void> {
    const form = parseReviewForm(req.body);
    let outcome: 'thanks' | 'invalid' = 'thanks';
    try {
      if (form.score === null) throw ValidationError.of('score', 'This value should not be null.');
      await this.reviews.submit(hash, { score: form.score, comment: form.comment });
    } catch (error) {
      // A browser posted this: an unknown link is the 404 page, not a JSON error.
      if (error instanceof NotFoundError) return this.site.notFound(req, res);
      if (!(error instanceof ValidationError)) throw error;
      outcome = 'invalid';
    }
    res.redirect(303, reviewFormRedirect(hash, form, outcome));
  }

  private async visiblePage(
    principal: Principal,
    raw: unknown,
  ): Promise<{ id: string; workspaceId: string }> {
    if (raw === undefined || raw === null || raw === '')
      throw ValidationError.of(
        'trackingPageId',
        'This value should not be blank.',
        ViolationCodes.notBlank,
      );
    if (typeof raw !== 'string') throw typeError('trackingPageId', 'string', raw);
    const id = await this.api.data.resolveReference(
      this.api.resource(TrackingPage),
      principal,
      raw,
    );
    if (!id) throw ValidationError.of('trackingPageId', `Item not found for "${raw}".`);
    const [row] = await this.dataSource.query(
      `SELECT workspace_id FROM tracking_page WHERE id = $1`,
      [id],
    );
    // Links are records of the workspace: read-only members do not create them.
    if (!canWriteWorkspace(principal, row.workspace_id))
      throw new ForbiddenError('Read-only access to this workspace.');
    return { id, workspaceId: row.workspace_id };
  }

  private filter(raw: unknown): { id?: string | string[] } {
    if (raw === undefined || raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) throw typeError('filter', 'array', raw);
    const id = (raw as Record<string, unknown>).id;
    if (id === undefined || id === null) return {};
    if (typeof id === 'string') return { id };
    if (Array.isArray(id) && id.every((x) => typeof x === 'string')) return { id: id as string[] };
    throw typeError('filter.id', 'string', id);
  }

  /** A shipment the caller sees, in the page's workspace; a violation at `path` otherwise. */
  private async shipment(
    em: EntityManager,
    principal: Principal,
    page: { workspaceId: string },
    raw: string,
    path: string,
  ): Promise<string> {
    const id = identifierFrom(raw);
    const visible = id
      ? await this.api.data.resolveReference(this.api.resource(Shipment), principal, id)
      : null;
    const rows = visible
      ? await em.query(`SELECT 1 FROM shipment WHERE id = $1 AND workspace_id = $2`, [
          visible,
          page.workspaceId,
        ])
      : [];
    if (!rows.length)
      throw ValidationError.of(path, `Item not found for "/shipments/${id ?? raw}".`);
    return visible!;
  }

  private async byTrackingNumber(
    em: EntityManager,
    page: { workspaceId: string },
    trackingNumber: string | null | undefined,
  ): Promise<string> {
    if (!trackingNumber)
      throw ValidationError.of(
        'filter.id',
        'This value should not be blank.',
        ViolationCodes.notBlank,
      );
    const rows = await em.query(
      `SELECT id FROM shipment WHERE workspace_id = $1 AND tracking_number = $2`,
      [page.workspaceId, trackingNumber.trim()],
    );
    if (!rows.length)
      throw ValidationError.of(
        'trackingNumber',
        `No shipment has the tracking number "${trackingNumber}".`,
      );
    return rows[0].id;
  }
}
