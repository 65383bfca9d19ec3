import { Documented } from '../hydra/validation/documented';
import { Typed } from '../hydra/validation/input-types';
import { COMMENT_MAX_LENGTH } from './reviews.service';

/*
 * Reviews posted through a public link. Types are checked here (400); the rules shared with the
 * page's form (scores 1 to 5, at least one, the comment's length, a page taking reviews) by
 * ReviewsService (422).
 */

const score = (description: string) =>
  Documented({ description, minimum: 1, maximum: 5, nullable: true });

/** `POST /public/tracking_page_links/{hash}/reviews` with a JSON body. */
export class ReviewInput {
  @Typed('integer') @score('The overall score, when not given by aspect.') score?: number | null;
  @Typed('integer') @score('The carrier\u2019s score.') carrierScore?: number | null;
  @Typed('integer') @score('The product\u2019s score.') productScore?: number | null;
  @Typed('integer') @score('The packaging\u2019s score.') packagingScore?: number | null;
  @Typed('string')
  @Documented({ nullable: true, maxLength: COMMENT_MAX_LENGTH })
  comment?: string | null;
}

/**
 * The same from the tracking page's review form (works without JavaScript): strings, read
 * leniently (a missing or wrong score sends the visitor back to the page saying so), with the
 * page's language and time zone to go back to.
 */
export class ReviewFormInput {
  @Documented({ type: 'string', enum: ['1', '2', '3', '4', '5'], description: 'The score.' })
  score?: unknown;
  @Documented({ type: 'string', maxLength: COMMENT_MAX_LENGTH }) comment?: unknown;
  @Documented({ type: 'string', description: 'The page\u2019s language, kept.' }) lang?: unknown;
  @Documented({ type: 'string', description: 'The page\u2019s time zone, kept.' }) tz?: unknown;
}
