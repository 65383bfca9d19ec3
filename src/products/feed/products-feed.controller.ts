import { Controller } from '@nestjs/common';
import type { TargetLocator } from '../../access/access-target';
import { visibleFromInput } from '../../access/access-target';
import type { Principal } from '../../access/principal';
import type { ActionContext, UploadedFile } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { typedJson } from '../../hydra/actions/action-result';
import {
  NotFoundError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../../common/errors/api-errors';
import { CsvTableError, readCsvTable } from '../../imports/csv-table';
import { csvUpload } from '../../imports/csv-upload';
import { Team } from '../../teams/team.entity';
import { TrackingPage } from '../../tracking-pages/tracking-page.entity';
import { FeedIssue, ProductsFeed, previewItems, readProductsFeed } from './products-feed';
import { ImportProductsFeedInput, VerifyProductsFeedInput } from './products-feed.input';
import { ImportProductsFeedResponse, VerifyProductsFeedResponse } from './products-feed.output';
import { ProductsFeedService } from './products-feed.service';

/** Rows a feed may have: beyond this a catalogue should come from an integration. */
export const MAX_FEED_ROWS = 50_000;
/** Issues listed in a report or a 422; the counts always cover all of them. */
const MAX_LISTED_ISSUES = 200;

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The team an import writes: `team`, else the team of the tracking page `trackingPageId`.
 * One the caller cannot see locates nothing: the handler answers the reference's 422.
 */
const feedTeam: TargetLocator = async (ctx) => {
  if (given(ctx.input.team)) return visibleFromInput(Team, 'team')(ctx);
  if (!given(ctx.input.trackingPageId)) return undefined;
  try {
    return await ctx.targets.ownersOf(TrackingPage, [String(ctx.input.trackingPageId)], 'team');
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
};

/**
 * Products feeds: `POST /products_feed/verify` answers a report (columns, counts, issues,
 * preview cards); `POST /products_feed/import` upserts the products and variants of a team by
 * SKU in one transaction, or imports nothing when the feed has errors.
 */
@Controller()
export class ProductsFeedController {
  constructor(private readonly feeds: ProductsFeedService) {}

  @Action({
    uploads: true,
    method: 'POST',
    path: '/products_feed/verify',
    summary: 'Checks a products feed and previews it; nothing is stored.',
    description:
      'Reads a CSV of variants (inline `feed` or the multipart `file`) and answers a report: columns, counts, errors and warnings by line and column, preview cards. Nothing is stored.',
    input: VerifyProductsFeedInput,
    output: { json: VerifyProductsFeedResponse },
    access: 'user',
  })
  verify(input: VerifyProductsFeedInput, _principal: Principal, context: ActionContext) {
    const feed = readFeed(context.files, { ...input });
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
    return typedJson(context, 'VerifyProductsFeedResponse', report);
  }

  @Action({
    uploads: true,
    method: 'POST',
    path: '/products_feed/import',
    summary: 'Imports a products feed into a team\u2019s catalogue.',
    description:
      'Upserts the products and variants of a CSV feed by SKU into the catalogue of `team` (or of the tracking page `trackingPageId`), in one transaction. A feed with errors imports nothing (422 naming lines and columns).',
    input: ImportProductsFeedInput,
    output: { json: ImportProductsFeedResponse },
    access: 'team:member',
    team: feedTeam,
  })
  async import(
    input: ImportProductsFeedInput,
    _principal: Principal,
    context: ActionContext<'team?'>,
  ) {
    const teamId = teamOf(input, context.teamId);
    const feed = readFeed(context.files, { ...input });
    if ('error' in feed) throw new ValidationError([feedViolation(feed.error)]);
    if (feed.errors.length > 0)
      throw new ValidationError(feed.errors.slice(0, MAX_LISTED_ISSUES).map(feedViolation), {
        errorCount: feed.errors.length,
      });
    const counts = await this.feeds.import(teamId, feed.products);
    return typedJson(context, 'ImportProductsFeedResponse', {
      team: `/teams/${teamId}`,
      feedType: 'csv' as const,
      rowCount: feed.rowCount,
      ...counts,
      warnings: feed.warnings.slice(0, MAX_LISTED_ISSUES),
    });
  }
}

/** The located team, or the 422 of the attribute that named none. */
function teamOf(input: ImportProductsFeedInput, teamId: string | undefined): string {
  if (teamId) return teamId;
  if (given(input.team)) throw ValidationError.of('team', `Item not found for "${input.team}".`);
  if (given(input.trackingPageId))
    throw ValidationError.of('trackingPageId', `Item not found for "${input.trackingPageId}".`);
  throw ValidationError.of(
    'team',
    'This value should not be blank: name the team (or a tracking page of it) to import into.',
    ViolationCodes.notBlank,
  );
}

/** The feed of the request, checked; or why it cannot be read as CSV at all. */
function readFeed(
  files: Readonly<Record<string, readonly UploadedFile[]>>,
  body: Record<string, unknown>,
): ProductsFeed | { error: FeedIssue } {
  const upload = csvUpload(files, body, 'feed');
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
