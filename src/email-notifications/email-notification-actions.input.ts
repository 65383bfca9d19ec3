import { Typed } from '../hydra/validation/input-types';

/**
 * The template of a preview or test: a stored notification (`id`), or a draft of a workspace
 * (`workspace`, `event`, `subject`, `body`); optional `shipment` (else sample values).
 */
export class NotificationPreviewInput {
  /** Id or IRI of a stored notification. */
  @Typed('string') id?: string | null;
  /** Id or IRI of the workspace of a draft. */
  @Typed('string') workspace?: string | null;
  /** The draft's event (default `shipment.status_changed`). */
  @Typed('string') event?: string | null;
  @Typed('string') subject?: string | null;
  @Typed('string') body?: string | null;
  /** Id or IRI of a shipment of that workspace whose values fill the template. */
  @Typed('string') shipment?: string | null;
}

/** The same, sent to `email` (default: the caller's own address). */
export class NotificationSendTestInput extends NotificationPreviewInput {
  @Typed('string') email?: string | null;
}

/** The workspace whose system notifications go back to the defaults (`id` or `workspace`). */
export class NotificationResetInput {
  @Typed('string') id?: string | null;
  @Typed('string') workspace?: string | null;
}
