import type { WriteTransactionRule } from '../hydra/write/transaction-rules';
import { deferEvents } from './deferred-events';
import { ignoredWebhookRule } from './ignored-webhook.rule';
import { flushDeferredEvents } from './outbox';

/**
 * The outbox's rules of a resource write's transaction (provided under
 * WRITE_TRANSACTION_OPENED by EventsModule; one provider per token and module): the
 * `?ignoreWebhookId=` mark first, and the write's events deferred, to go in one statement
 * before its commit (a shipment's POST records its own, its items' and its orders' events).
 */
export const outboxTransactionRule: WriteTransactionRule = {
  async opened(em, request) {
    deferEvents(em);
    await ignoredWebhookRule.opened(em, request);
  },
  closing: (em) => flushDeferredEvents(em),
};
