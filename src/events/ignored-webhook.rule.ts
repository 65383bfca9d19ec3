import type { WriteTransactionRule } from '../hydra/write/transaction-rules';
import { ignoreWebhookFor } from './outbox';

/**
 * A resource write asked with `?ignoreWebhookId=<workflow>` (a store plugin's own change) marks
 * the events its transaction records as not for that webhook workflow. Run by the writer first
 * in the transaction (provided under WRITE_TRANSACTION_OPENED by EventsModule).
 */
export const ignoredWebhookRule: WriteTransactionRule = {
  opened: (em, request) => ignoreWebhookFor(em, request?.query?.ignoreWebhookId),
};
