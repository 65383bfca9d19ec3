import type { Principal } from '../../access/principal';
import type { SqlRunner } from '../../database/query';
import { atTopLevel, transactionOf } from '../../database/transaction-scope';

/**
 * References found visible in a transaction that asked to remember them
 * (DataProvider.rememberVisible), by principal, as `<table>/<id>`.
 */
const memories = new WeakMap<object, Map<Principal | null, Set<string>>>();

/**
 * What such a transaction read about references that only a deletion or a move changes (the
 * workspace of a workflow that lines and parcels name), by `<what>/<id>`; forgotten with the
 * references.
 */
const facts = new WeakMap<object, Map<string, string>>();

/**
 * A transaction writing many records that name the same ones (an import's lines and parcels
 * name their order, workflow and workspace) checks each reference once: a record seen visible
 * stays visible for the principal until the transaction deletes something (forget), since
 * only a deletion takes a row out of a tenancy within one transaction.
 */
export class VisibleMemory {
  /** From now on, the runner's transaction remembers what it found visible. */
  static start(runner: SqlRunner): void {
    const tx = transactionOf(runner);
    if (tx && !memories.has(tx)) {
      memories.set(tx, new Map());
      facts.set(tx, new Map());
    }
  }

  /**
   * The transaction deleted something (or moved records to another workspace): what it
   * remembered is checked again.
   */
  static forget(runner: SqlRunner): void {
    const tx = transactionOf(runner);
    if (tx && memories.has(tx)) {
      memories.set(tx, new Map());
      facts.set(tx, new Map());
    }
  }

  /** A fact the transaction read before (`note`), if it remembers it. */
  static recall(runner: SqlRunner, key: string): string | undefined {
    const tx = transactionOf(runner);
    return tx ? facts.get(tx)?.get(key) : undefined;
  }

  /** A fact read now, remembered like a visible reference (asked for, top level only). */
  static note(runner: SqlRunner, key: string, value: string): void {
    const tx = transactionOf(runner);
    if (tx && atTopLevel(tx)) facts.get(tx)?.set(key, value);
  }

  /** Whether the transaction found this record visible to the principal before. */
  static seen(runner: SqlRunner, principal: Principal | null, table: string, id: string): boolean {
    const tx = transactionOf(runner);
    return (tx && memories.get(tx)?.get(principal)?.has(`${table}/${id}`)) ?? false;
  }

  /**
   * The record was found visible to the principal: remembered if the transaction asked, at its
   * top level only (a savepoint rolled back may take a row it created with it).
   */
  static saw(runner: SqlRunner, principal: Principal | null, table: string, id: string): void {
    const tx = transactionOf(runner);
    const memory = tx && atTopLevel(tx) && memories.get(tx);
    if (!memory) return;
    let seen = memory.get(principal);
    if (!seen) memory.set(principal, (seen = new Set()));
    seen.add(`${table}/${id}`);
  }
}
