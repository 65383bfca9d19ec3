import type { SqlRunner } from './query';

/** The TypeORM query runner of a transaction, as far as a transaction's memory needs it. */
interface TransactionRunner {
  readonly isTransactionActive: boolean;
  /** 1 at the transaction's top level, more inside savepoints. */
  readonly transactionDepth?: number;
}

/**
 * The open transaction a runner (EntityManager, QueryRunner) works in, as a key for what a
 * store remembers until it ends (TypeORM opens every transaction on a query runner of its
 * own); undefined outside a transaction (a pool, a pg client).
 */
export function transactionOf(runner: SqlRunner): TransactionRunner | undefined {
  const qr = runner.queryRunner as TransactionRunner | undefined;
  return qr?.isTransactionActive ? qr : undefined;
}

/**
 * Whether the runner is at its transaction's top level, outside any savepoint: what happens
 * there (a row lock taken, an event recorded) lasts until the transaction ends, whatever
 * later savepoints roll back.
 */
export function atTopLevel(tx: TransactionRunner): boolean {
  return (tx.transactionDepth ?? 1) <= 1;
}
