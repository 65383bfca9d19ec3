import { Controller } from '@nestjs/common';
import { unlessInvisible } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { classSchema } from '../hydra/actions/action-schemas';
import { Answer, PageAnswer, RedirectAnswer, typedJson } from '../hydra/actions/action-result';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NotFoundError, ValidationError } from '../common/errors/api-errors';
import { RateLimited } from '../rate-limit/rate-budget';
import { HomeSite } from './page/home-site';
import { actionPageRequest } from './page/page-context';
import { parseReviewForm, reviewFormRedirect } from './page/review-form';
import { Review } from './review.entity';
import { ReviewFormInput, ReviewInput } from './reviews.input';
import { ReviewsService } from './reviews.service';
import { TrackingPage } from './tracking-page.entity';
import { TrackingPageLinkGenerator } from './tracking-page-link-generator';
import { TrackingPageLinksService } from './tracking-page-links.service';
import { GenerateLinkInput } from './tracking-pages.input';
import {
  PostReviewResponse,
  PublicTrackingPage,
  TrackingPageLinkOutput,
  TrackingPageLinksOutput,
} from './tracking-pages.output';

/** GET /reviews, GET /reviews/{id}. */
export class ReviewsController extends ResourceController(Review) {}

const trackingPageWorkspace = unlessInvisible((ctx) =>
  typeof ctx.input.trackingPageId === 'string' && ctx.input.trackingPageId
    ? ctx.targets.ownersOf(TrackingPage, [ctx.input.trackingPageId], 'workspace')
    : undefined,
);

/**
 * Tracking page links: generated for a page and a shipment of the same workspace, served to
 * anyone holding the link (JSON at /public/tracking_page_links/{hash}; the page at /t/{hash}
 * is page/tracking-site.controller.ts).
 */
@Controller()
export class TrackingPageLinksController {
  constructor(
    private readonly generator: TrackingPageLinkGenerator,
    private readonly links: TrackingPageLinksService,
  ) {}

  @Action({
    method: 'POST',
    path: '/generate_tracking_page_link',
    summary: 'Generates the public link of a shipment on a tracking page.',
    description:
      'Answers `{link}` for the page `trackingPageId` and the shipment named by `filter.id` or `trackingNumber`, of the page’s workspace. The same page and shipment always get the same link.',
    input: GenerateLinkInput,
    output: { json: TrackingPageLinkOutput },
    status: 201,
    access: 'workspace:write',
    workspace: trackingPageWorkspace,
  })
  async generate(input: GenerateLinkInput, principal: Principal, context: ActionContext) {
    const link = await this.generator.one(principal, input, context.origin);
    return typedJson(context, 'TrackingPageLink', { link });
  }

  @Action({
    method: 'POST',
    path: '/generate_tracking_page_links',
    summary: 'Generates the public links of several shipments on a tracking page.',
    description:
      'Answers `{links: [{id, link}]}` for up to 1000 shipments (`filter.id`) of the page’s workspace, in the given order. All or nothing: a 422 lists every shipment refused.',
    input: GenerateLinkInput,
    output: { json: TrackingPageLinksOutput },
    status: 201,
    access: 'workspace:write',
    workspace: trackingPageWorkspace,
  })
  async generateMany(input: GenerateLinkInput, principal: Principal, context: ActionContext) {
    const links = await this.generator.many(principal, input, context.origin);
    return typedJson(context, 'TrackingPageLinks', { links });
  }

  @Action({
    method: 'GET',
    path: '/public/tracking_page_links/:hash',
    summary: 'Reads a shipment through its public tracking page link.',
    description:
      'Anyone holding the link may read it, without a token: the page\u2019s look, the shipment without contact data, its review, and its checkpoints. 404 for an unknown link or a disabled page.',
    output: { json: PublicTrackingPage },
    access: 'public',
  })
  async view(_input: object, _principal: Principal | null, context: ActionContext) {
    const view = await this.links.view(context.params.hash);
    return typedJson(context, 'PublicTrackingPage', view);
  }
}

/** Reviews posted through a link: JSON, or the tracking page's form (a redirect). */
@Controller()
export class TrackingPageReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly site: HomeSite,
  ) {}

  @Action({
    method: 'POST',
    path: '/public/tracking_page_links/:hash/reviews',
    summary: 'Posts a review of a shipment through its public link.',
    description:
      'A JSON body with scores (1 to 5) and an optional `comment` answers `{id}` (201), to anyone holding the link while the page takes reviews, once the shipment is delivered. The tracking page’s form is redirected (303) back to the page.',
    input: ReviewInput,
    form: { input: ReviewFormInput, formats: 'any' },
    output: { oneOf: { json: PostReviewResponse, html: true, redirect: true } },
    status: 201,
    responses: {
      201: {
        description:
          'A JSON body with scores (1 to 5) and an optional `comment` answers `{id}` (201), to anyone holding the link while the page takes reviews. The tracking page’s form is redirected (303) back to the page.',
        content: {
          'application/ld+json': { schema: classSchema(PostReviewResponse) },
          'application/json': { schema: classSchema(PostReviewResponse) },
        },
      },
      303: { description: 'The form: back to the page, saying how the review went.' },
      429: {
        description:
          'The link\u2019s review budget is spent (the form gets an HTML page); retry after Retry-After.',
        headers: {
          'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
        },
      },
    },
    access: 'public',
  })
  async review(
    input: ReviewInput | ReviewFormInput,
    _principal: Principal | null,
    context: ActionContext,
  ) {
    const hash = context.params.hash;
    if (input instanceof ReviewFormInput) return this.reviewForm(hash, input, context);
    const id = await this.reviews.submit(hash, input);
    const iri = `/reviews/${id}`;
    return new Answer(typedJson(context, 'PostReviewResponse', { id }, iri), 201, {
      Location: iri,
    });
  }

  /**
   * The review form of the tracking page (works without JavaScript): `score` 1 to 5 and
   * `comment`, then back to the page (303) saying thanks, or that the rating was missing.
   */
  private async reviewForm(
    hash: string,
    input: ReviewFormInput,
    context: ActionContext,
  ): Promise<PageAnswer | RedirectAnswer> {
    const form = parseReviewForm(input);
    let outcome: 'thanks' | 'invalid' = 'thanks';
    try {
      if (form.score === null) throw ValidationError.of('score', 'This value should not be null.');
      await this.reviews.submit(hash, { score: form.score, comment: form.comment });
    } catch (error) {
      // A browser posted this: an unknown link is the 404 page, not a JSON error.
      if (error instanceof NotFoundError)
        return new PageAnswer(this.site.notFoundPage(actionPageRequest(context, input)));
      if (error instanceof RateLimited)
        return new PageAnswer(
          this.site.reviewLimitedPage(actionPageRequest(context, input), error.retryAfterSeconds),
        );
      if (!(error instanceof ValidationError)) throw error;
      outcome = 'invalid';
    }
    return new RedirectAnswer({ url: reviewFormRedirect(hash, form, outcome), status: 303 });
  }
}
