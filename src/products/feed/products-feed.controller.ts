import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import type { Principal } from '../../access/principal';
import { HydraApi } from '../../hydra/controller/hydra-api';
import {
  ApiError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../../hydra/errors/api-errors';
import { CsvTableError, readCsvTable } from '../../imports/csv-table';
import { csvUpload } from '../../imports/csv-upload';
import { Team } from '../../teams/team.entity';
import { TrackingPage } from '../../tracking-pages/tracking-page.entity';
import { sendAction } from '../../tracking-pages/action-response';
import { FeedIssue, ProductsFeed, previewItems, readProductsFeed } from './products-feed';
import { ProductsFeedService } from './products-feed.service';
import { AcceptsUploads } from '../../hydra/serialization/multipart.middleware';

/** Rows a feed may have: beyond this a catalogue should come from an integration. */
export const MAX_FEED_ROWS = 50_000;
export const FEED_TYPES = ['csv'] as const;
/** Issues listed in a report or a 422; the counts always cover all of them. */
const MAX_LISTED_ISSUES = 200;

/**
 * Products feeds: a CSV of variants (`sku`, `productSku`, `name`, `price`, `imageUrl`,
 * `originUrl`; usual aliases accepted) sent inline as `feed` or as the multipart file `file`.
 * `POST /products_feed/verify` answers a report (columns, counts, issues, preview cards);
 * `POST /products_feed/import` upserts the products and variants of a team by SKU in one
 * transaction, or imports nothing when the feed has errors (422 naming lines and columns).
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class ProductsFeedController {
  constructor(
    private readonly api: HydraApi,
    private readonly feeds: ProductsFeedService,
    private readonly dataSource: DataSource,
  ) {}

  @Post('/products_feed/verify')
  @AcceptsUploads()
  @HttpCode(200)
  async verify(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    this.api.requirePrincipal(req);
    const body = this.api.body(req);
    checkFeedType(body);
    const feed = readFeed(req, body);
    const report =
      'error' in feed
        ? {
            accessible: false,
            verified: false,
            items: [],
            columns: [],
            rowCount: 0,
            productCount: 0,
            variantCount: 0,
            errors: [feed.error],
            warnings: [],
          }
        : {
            accessible: true,
            verified: feed.errors.length === 0,
            items: previewItems(feed),
            columns: feed.columns,
            rowCount: feed.rowCount,
            productCount: feed.products.length,
            variantCount: feed.products.reduce((n, p) => n + p.variants.length, 0),
            errorCount: feed.errors.length,
            errors: feed.errors.slice(0, MAX_LISTED_ISSUES),
            warnings: feed.warnings.slice(0, MAX_LISTED_ISSUES),
          };
    sendAction(this.api.responder, req, res, 'VerifyProductsFeedResponse', report);
  }

  @Post('/products_feed/import')
  @AcceptsUploads()
  @HttpCode(200)
  async import(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    checkFeedType(body);
    const teamId = await this.teamOf(body, principal);
    const feed = readFeed(req, body);
    if ('error' in feed) throw new ValidationError([feedViolation(feed.error)]);
    if (feed.errors.length > 0)
      throw new ValidationError(feed.errors.slice(0, MAX_LISTED_ISSUES).map(feedViolation), {
        errorCount: feed.errors.length,
      });
    const counts = await this.feeds.import(teamId, feed.products);
    sendAction(this.api.responder, req, res, 'ImportProductsFeedResponse', {
      team: `/teams/${teamId}`,
      feedType: 'csv',
      rowCount: feed.rowCount,
      ...counts,
      warnings: feed.warnings.slice(0, MAX_LISTED_ISSUES),
    });
  }

  /** The team named by `team` (IRI or id), or the team of the tracking page `trackingPageId`. */
  private async teamOf(body: Record<string, unknown>, principal: Principal): Promise<string> {
    const reference = (field: string): string | null => {
      const value = body[field];
      if (value === undefined || value === null || value === '') return null;
      if (typeof value !== 'string')
        throw new ApiError(400, `The type of the "${field}" attribute must be "string".`);
      return value;
    };
    const team = reference('team');
    if (team !== null) {
      const id = await this.api.data.resolveReference(this.api.resource(Team), principal, team);
      if (!id) throw ValidationError.of('team', `Item not found for "${team}".`);
      return id;
    }
    const page = reference('trackingPageId');
    if (page !== null) {
      const id = await this.api.data.resolveReference(
        this.api.resource(TrackingPage),
        principal,
        page,
      );
      if (!id) throw ValidationError.of('trackingPageId', `Item not found for "${page}".`);
      const [row] = await this.dataSource.query(
        `SELECT w.team_id FROM tracking_page p JOIN workspace w ON w.id = p.workspace_id WHERE p.id = $1`,
        [id],
      );
      return row.team_id as string;
    }
    throw ValidationError.of(
      'team',
      'This value should not be blank: name the team (or a tracking page of it) to import into.',
      ViolationCodes.notBlank,
    );
  }
}

function checkFeedType(body: Record<string, unknown>): void {
  const type = body.feedType;
  if (type === undefined || type === null) return;
  if (!(FEED_TYPES as readonly unknown[]).includes(type))
    throw ValidationError.of(
      'feedType',
      'The value you selected is not a valid choice.',
      ViolationCodes.choice,
    );
}

/** The feed of the request, checked; or why it cannot be read as CSV at all. */
function readFeed(
  req: Request,
  body: Record<string, unknown>,
): ProductsFeed | { error: FeedIssue } {
  const upload = csvUpload(req, body, 'feed');
  try {
    return readProductsFeed(readCsvTable(upload.text, MAX_FEED_ROWS));
  } catch (error) {
    if (!(error instanceof CsvTableError)) throw error;
    return { error: { line: error.line, column: null, message: error.message } };
  }
}

function feedViolation(issue: FeedIssue): Violation {
  const where = [
    issue.line !== null ? `Line ${issue.line}` : null,
    issue.column !== null ? `column "${issue.column}"` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return {
    propertyPath: 'feed',
    message: where ? `${where}: ${issue.message}` : issue.message,
    code: ViolationCodes.invalid,
  };
}
