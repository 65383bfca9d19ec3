/**
 * Thrown by a delivery target when the delivery cannot succeed as things stand (its settings
 * are missing or refused): the outbox gives the delivery up at once instead of retrying, as
 * it does for a webhook without credentials.
 */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError';
}
