import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../access/principal';
import type { Violation } from '../../common/errors/api-errors';
import type { WriteOperation } from './declaration';
import type { ResourceMeta } from './resource-meta';
import type { SqlQuery } from './sql-query';
import type { ApiRecord } from './api-record';

/** An object given as an element of a to-many property that accepts objects (acceptObjectOn). */
export interface NestedElement {
  index: number;
  /** The element's `@id` resolved within the caller's tenancy; absent for a new record. */
  id?: string;
  value: Record<string, unknown>;
}

export interface WriteContext<S = unknown> {
  principal: Principal;
  operation: WriteOperation | 'delete';
  resource: ResourceMeta;
  /** The transaction every step of the write runs in. */
  em: EntityManager;
  body: Record<string, unknown>;
  /** Objects given where the declaration accepts them instead of IRIs. */
  nested: Record<string, Record<string, unknown> | null>;
  /** Objects given as elements of a to-many property that accepts them, by property. */
  nestedElements?: Record<string, NestedElement[]>;
  request?: Request;
  /**
   * The write's own state, answered by the resource's `begin` hook and handed to every later
   * hook of the same write (the row as stored before a PUT, what a create read before its
   * INSERT, an event's snapshot): nothing a write needs between its steps hides elsewhere.
   */
  state: S;
  /**
   * The write is one of a batch (ResourceWriter.createManyWithin): what a single write's
   * `prepare` reads for itself, the batch form reads once for all.
   */
  batch?: boolean;
}

export interface ReadContext {
  principal: Principal | null;
  resource: ResourceMeta;
  request: Request;
}

/**
 * The business rules of one resource, called by the shared write pipeline:
 * begin -> denormalize -> prepare -> validate (constraints + rules) -> persist ->
 * afterWrite (or begin -> beforeRemove -> remove), all in one transaction. Every hook is
 * optional. `S` is the write's state: what `begin` answers, passed to the later hooks as
 * `ctx.state` (and to `written`).
 */
export interface ResourceHooks<T = any, S = any> {
  /**
   * The first step of every write. On PUT and DELETE the entity is the stored record, loaded
   * and locked, before the body is applied: what it holds now is the row before the write.
   */
  begin?(entity: T, ctx: WriteContext<undefined>): Promise<S> | S;
  /** Derive fields and create nested objects before validation. */
  prepare?(entity: T, ctx: WriteContext<S>): Promise<void> | void;
  /** Business rules that need the database; violations become a 422. */
  validate?(entity: T, ctx: WriteContext<S>): Promise<Violation[]> | Violation[];
  /**
   * References whose rows `validate` reads in a statement of its own and reports missing
   * (`referenceNotFound`): the pipeline then resolves them from the caller's tenancy alone
   * where the id decides it (a workspace of the caller's), without a statement.
   */
  readonly checksReferences?: readonly string[];
  /** Replaces the default `em.save(entity)`. */
  persist?(entity: T, ctx: WriteContext<S>): Promise<void>;
  /** Runs inside the transaction after persisting (counters, outbox events). */
  afterWrite?(entity: T, ctx: WriteContext<S>): Promise<void> | void;
  /**
   * The record as GET answers it, when the write already read it in its transaction (for an
   * outbox event's payload, say): a create answers from it instead of reading it again.
   */
  written?(entity: T, state: S): ApiRecord | undefined;
  /**
   * A batch form of creates (ResourceWriter.createManyWithin), for records written together in
   * one transaction: each is denormalized, prepared and validated on its own as a create is,
   * then these replace `validate`, `persist` and `afterWrite` once for all.
   */
  readonly createMany?: BatchCreateHooks<T, S>;
  /** Checks or side effects before a delete; throw to refuse. */
  beforeRemove?(entity: T, ctx: WriteContext<S>): Promise<void> | void;
  /** Replaces the default delete. */
  remove?(entity: T, ctx: WriteContext<S>): Promise<void>;
  /** Extra conditions on every collection read of the resource. */
  scopeCollection?(query: SqlQuery, ctx: ReadContext): void;
}

/**
 * The steps of a batch of creates that read or write the database, once for the batch: the same
 * rules and results as the single hooks run record after record, in the order given.
 */
export interface BatchCreateHooks<T = any, S = any> {
  /**
   * The violations of each record (by index) that `validate` would report, the records before
   * it counted as written (say, quantities they take); the error `validate` would throw for a
   * record it refuses otherwise (a 400).
   */
  validate(entities: T[], ctxs: WriteContext<S>[]): Promise<Array<Violation[] | Error>>;
  /** Writes every record (one statement per table), their ids set on the entities. */
  persist(entities: T[], ctxs: WriteContext<S>[]): Promise<void>;
  /** What `afterWrite` does for each, in order (their events in that order). */
  afterWrite(entities: T[], ctxs: WriteContext<S>[]): Promise<void>;
}
