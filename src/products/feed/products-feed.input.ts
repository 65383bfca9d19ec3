import { Choice } from '../../hydra/validation/constraints';
import { Typed } from '../../hydra/validation/input-types';

export const FEED_TYPES = ['csv'] as const;

/** `POST /products_feed/verify`: the feed as text `feed`, or the multipart file `file`. */
export class VerifyProductsFeedInput {
  /** The CSV text, when no file is uploaded. */
  @Typed('string') feed?: string | null;
  /** `csv` (the only one). */
  @Choice(FEED_TYPES) feedType?: string | null;
  /** The file's name as the user knows it. */
  @Typed('string') fileOriginalName?: string | null;
}

/** `POST /products_feed/import`: the feed and the team it goes to. */
export class ImportProductsFeedInput extends VerifyProductsFeedInput {
  /** Id or IRI of the team. */
  @Typed('string') team?: string | null;
  /** Or the id or IRI of a tracking page of the team. */
  @Typed('string') trackingPageId?: string | null;
}
