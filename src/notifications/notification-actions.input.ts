import { Typed } from '../hydra/validation/input-types';

/** `POST /notifications/mark_as_read`. */
export class MarkAsReadInput {
  /** Ids or IRIs of the caller's notifications; left out: all of them. */
  @Typed('string', { each: true }) ids?: string[] | null;
}

/** `POST /notifications/mark_all_as_read` (the reference's name). */
export class MarkAllAsReadInput {
  /** Optional, and only the caller's own id or IRI (404 otherwise). */
  @Typed('string') userId?: string | null;
}
