import type { ModuleRef } from '@nestjs/core';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';

/**
 * A rule of another module that runs first in every transaction the writer opens for a
 * request (POST, PUT, DELETE of a resource): it sets what the write's later statements read
 * from the session (the outbox's `?ignoreWebhookId=`), and, with `closing`, last before the
 * commit (the outbox writing the events the transaction deferred). The module provides it under
 * WRITE_TRANSACTION_OPENED in its own `@Module` providers; the writer finds every such
 * provider at start-up, so the layer names no feature.
 */
export interface WriteTransactionRule {
  opened(em: EntityManager, request: Request | undefined): Promise<void> | void;
  /** Last in the transaction, once the write succeeded. */
  closing?(em: EntityManager): Promise<void>;
}

export const WRITE_TRANSACTION_OPENED = Symbol('hydra:writeTransactionOpened');

/** Every WRITE_TRANSACTION_OPENED provider of the application, in module order. */
export function transactionRulesOf(moduleRef: ModuleRef): WriteTransactionRule[] {
  try {
    return moduleRef.get<WriteTransactionRule>(WRITE_TRANSACTION_OPENED, {
      strict: false,
      each: true,
    });
  } catch {
    // No module provides one (an application context without them).
    return [];
  }
}
