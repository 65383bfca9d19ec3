import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Request } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../access/principal';
import { itemIdentifier } from '../core/identifiers';
import { DataProvider } from '../collection/data-provider';
import { NotFoundError, ValidationError, Violation } from '../../common/errors/api-errors';
import { assertAccess, assertDelegation, isWriteLevel, scopeOf } from '../../access/access-level';
import { AccessTargets, ownerPath } from '../collection/access-targets';
import { resourceAccess, resourceDelegation } from '../metadata/resource-access';
import { relationTarget } from '../metadata/search-variables';
import type { WriteOperation } from '../core/declaration';
import type { ResourceMeta } from '../core/resource-meta';
import type { ApiRecord } from '../core/api-record';
import { validateEntity } from '../validation/validate-entity';
import { Denormalizer } from './denormalizer';
import { PropertyValidators } from './property-validators';
import { resetOmittedOnPut } from './put-replace';
import type { ResourceHooks, WriteContext } from '../core/resource-hooks';
import { WriteRules } from './write-rules';
import { checkIfMatch } from './preconditions';
import { transactionRulesOf, type WriteTransactionRule } from './transaction-rules';

/** Creates, replaces and deletes resources through one transactional pipeline. */
@Injectable()
export class ResourceWriter implements OnModuleInit {
  private transactionRules: WriteTransactionRule[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly data: DataProvider,
    private readonly denormalizer: Denormalizer,
    private readonly propertyValidators: PropertyValidators = new PropertyValidators(),
    private readonly writeRules: WriteRules = new WriteRules(),
    private readonly targets: AccessTargets = new AccessTargets(data),
    @Optional() private readonly moduleRef?: ModuleRef,
  ) {}

  onModuleInit(): void {
    if (this.moduleRef) this.transactionRules = transactionRulesOf(this.moduleRef);
  }

  async create(
    resource: ResourceMeta,
    body: unknown,
    principal: Principal,
    hooks: ResourceHooks = {},
    request?: Request,
  ): Promise<string> {
    return (await this.createAndRead(resource, body, principal, hooks, request)).id;
  }

  /**
   * Creates a resource; answers its id, and the record as GET answers it when the hooks
   * already read it in the transaction (`written`): the create's response needs no read then.
   * The record was read before the commit, in the creating transaction: nothing else could
   * change it in between.
   */
  async createAndRead(
    resource: ResourceMeta,
    body: unknown,
    principal: Principal,
    hooks: ResourceHooks = {},
    request?: Request,
  ): Promise<{ id: string; record?: ApiRecord }> {
    return this.dataSource.transaction(async (em) => {
      await this.opened(em, request);
      const entity = em.create(resource.target as any) as Record<string, any>;
      const state = await this.write(resource, entity, body, 'post', principal, hooks, em, request);
      await this.closing(em);
      return { id: String(entity[resource.idProperty]), record: hooks.written?.(entity, state) };
    });
  }

  /**
   * Creates a resource inside a transaction that is already open, through the
   * same pipeline: e.g. a shipment given as an object in a shipment item POST.
   * Violations are reported under `pathPrefix` (`shipment.trackingNumber`).
   */
  async createWithin(
    em: EntityManager,
    resource: ResourceMeta,
    body: unknown,
    principal: Principal,
    hooks: ResourceHooks = {},
    pathPrefix = '',
    request?: Request,
  ): Promise<string> {
    const entity = em.create(resource.target as any) as Record<string, any>;
    await prefixViolations(pathPrefix, () =>
      this.write(resource, entity, body, 'post', principal, hooks, em, request),
    );
    const id = String(entity[resource.idProperty]);
    this.sawWritten(em, resource, principal, id, entity.workspace?.id);
    return id;
  }

  /**
   * Creates several records of a resource inside an open transaction, through the same
   * pipeline as `createWithin` each, but with the hooks' batch form (`createMany`) reading and
   * writing for all at once: the first record (in the order given) that a create would refuse
   * is refused with the same violations, under its `pathPrefix`, and nothing is written.
   * Answers the ids in order.
   */
  async createManyWithin(
    em: EntityManager,
    resource: ResourceMeta,
    inputs: ReadonlyArray<{ body: unknown; pathPrefix: string }>,
    principal: Principal,
    hooks: ResourceHooks,
    request?: Request,
  ): Promise<string[]> {
    const batch = hooks.createMany;
    if (!batch) throw new Error(`${resource.shortName} has no batch form of its creates`);
    const entities: Record<string, any>[] = [];
    const ctxs: WriteContext[] = [];
    const found: Array<Violation[] | Error> = [];
    for (const { body, pathPrefix } of inputs) {
      const entity = em.create(resource.target as any) as Record<string, any>;
      const { ctx, violations } = await prefixViolations(pathPrefix, () =>
        this.checked(resource, entity, body, 'post', principal, hooks, em, request, true),
      );
      entities.push(entity);
      ctxs.push(ctx);
      found.push(violations);
    }
    // The database's rules only for records that passed the others, as `write` runs them.
    const valid = found.flatMap((v, i) => (Array.isArray(v) && v.length === 0 ? [i] : []));
    const ruled = await batch.validate(
      valid.map((i) => entities[i]),
      valid.map((i) => ctxs[i]),
    );
    for (const [n, i] of valid.entries()) found[i] = ruled[n];
    for (const [i, violations] of found.entries()) {
      if (violations instanceof Error) throw violations;
      const all =
        violations.length > 0 ? violations : await this.writeRules.run(entities[i], ctxs[i]);
      if (all.length > 0) throw new ValidationError(prefixed(inputs[i].pathPrefix, all));
    }
    await batch.persist(entities, ctxs);
    await batch.afterWrite(entities, ctxs);
    const ids = entities.map((e) => String(e[resource.idProperty]));
    for (const [i, id] of ids.entries())
      this.sawWritten(em, resource, principal, id, entities[i].workspace?.id);
    return ids;
  }

  /**
   * Replaces a resource inside a transaction that is already open, through the same pipeline:
   * e.g. a shipment item given as `{@id, qty}` in a shipment PUT. Violations are reported
   * under `pathPrefix`.
   */
  async replaceWithin(
    em: EntityManager,
    resource: ResourceMeta,
    id: string,
    body: unknown,
    principal: Principal,
    hooks: ResourceHooks = {},
    pathPrefix = '',
    request?: Request,
  ): Promise<void> {
    const entity = await this.load(resource, id, principal, em);
    await prefixViolations(pathPrefix, () =>
      this.write(resource, entity, body, 'put', principal, hooks, em, request),
    );
  }

  async replace(
    resource: ResourceMeta,
    id: string,
    body: unknown,
    principal: Principal,
    hooks: ResourceHooks = {},
    request?: Request,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.opened(em, request);
      const entity = await this.load(resource, id, principal, em);
      await checkIfMatch(this.data, resource, principal, id, em, request);
      await this.write(resource, entity, body, 'put', principal, hooks, em, request);
      await this.closing(em);
    });
  }

  async remove(
    resource: ResourceMeta,
    id: string,
    principal: Principal,
    hooks: ResourceHooks = {},
    request?: Request,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.opened(em, request);
      const entity = await this.load(resource, id, principal, em, 'delete');
      await checkIfMatch(this.data, resource, principal, id, em, request);
      await this.removeWithin(em, resource, entity, principal, hooks, request);
      await this.closing(em);
    });
  }

  /**
   * Deletes a record (loaded, or `{ id }` where the hooks need no more) inside a transaction
   * that is already open, through its hooks: a batch delete, a merge's duplicates, an
   * integration's data.
   */
  async removeWithin(
    em: EntityManager,
    resource: ResourceMeta,
    entity: Record<string, any>,
    principal: Principal,
    hooks: ResourceHooks = {},
    request?: Request,
  ): Promise<void> {
    const ctx: WriteContext = {
      principal,
      operation: 'delete',
      resource,
      em,
      body: {},
      nested: {},
      request,
      state: undefined,
    };
    ctx.state = await hooks.begin?.(entity, ctx as WriteContext<undefined>);
    await hooks.beforeRemove?.(entity, ctx);
    if (hooks.remove) await hooks.remove(entity, ctx);
    else await em.delete(resource.target, { [resource.idProperty]: entity[resource.idProperty] });
    // The record and what cascades from it are gone: references are checked again.
    this.data.forgetVisible(em);
  }

  /**
   * A record the principal wrote in this transaction, in one of its workspaces: references to it
   * in the same transaction need no check (DataProvider.sawWritten).
   */
  sawWritten(
    em: EntityManager,
    resource: ResourceMeta,
    principal: Principal,
    id: string,
    workspaceId: string | undefined,
  ): void {
    this.data.sawWritten(em, resource, principal, id, workspaceId);
  }

  /** The transaction rules of other modules (WRITE_TRANSACTION_OPENED), first in a write's transaction. */
  private async opened(em: EntityManager, request: Request | undefined): Promise<void> {
    for (const rule of this.transactionRules) await rule.opened(em, request);
  }

  /** The transaction rules' last steps, before the commit of a write that succeeded. */
  private async closing(em: EntityManager): Promise<void> {
    for (const rule of this.transactionRules) await rule.closing?.(em);
  }

  /** The entity, locked for the transaction, if the principal may see it; 404 otherwise. */
  async load(
    resource: ResourceMeta,
    id: string,
    principal: Principal,
    em: EntityManager,
    operation: 'put' | 'delete' = 'put',
  ): Promise<Record<string, any>> {
    if (
      itemIdentifier(resource, id) === null ||
      !(await this.data.visible(resource, principal, id, em))
    )
      throw new NotFoundError();
    const entity = await em.findOne(resource.target as any, {
      where: { [resource.idProperty]: id },
      lock: { mode: 'pessimistic_write' },
    });
    if (!entity) throw new NotFoundError();
    await this.assertWritable(resource, principal, em, { id }, operation);
    return entity as Record<string, any>;
  }

  /**
   * The access the operation declares (metadata/resource-access.ts), checked against the
   * workspace or team the record belongs to: read-only workspace members see a workspace's
   * records but may not change them, team-scoped records may need an admin or the owner.
   * 403 for a write to a record (by id) or into a workspace or team (new or moved entity).
   * The route's guard has checked the declaration's `delegated` for the route's own resource;
   * this applies it to records written inside another's write too (credentials given in a
   * workflow).
   */
  private async assertWritable(
    resource: ResourceMeta,
    principal: Principal,
    em: EntityManager,
    target: { id: string } | { entity: Record<string, any> },
    operation: 'post' | 'put' | 'delete',
  ): Promise<void> {
    assertDelegation(principal, resourceDelegation(resource.options, operation));
    const level = resourceAccess(resource.options, operation);
    const scope = scopeOf(level);
    if (scope === 'none' || !isWriteLevel(level)) return;
    if (level === 'workspace:write' && !principal.readOnlyWorkspaceIds?.length) return;
    for (const id of await this.owners(resource, principal, em, scope, target)) {
      assertAccess(principal, level, scope === 'workspace' ? { workspaceId: id } : { teamId: id });
    }
  }

  /** The workspaces or teams owning the record (or the new entity's references). */
  private async owners(
    resource: ResourceMeta,
    principal: Principal,
    em: EntityManager,
    scope: 'workspace' | 'team',
    target: { id: string } | { entity: Record<string, any> },
  ): Promise<string[]> {
    if ('id' in target) return this.targets.ownersOf(resource, principal, [target.id], scope, em);
    const path = ownerPath(resource, scope);
    if (path === 'self') return [];
    const [relation, ...rest] = path.split('.');
    const id = target.entity[relation]?.id as string | undefined;
    if (!id) return [];
    if (rest.length === 0) return [id];
    const related = relationTarget(this.data.registry, resource, relation);
    return related ? this.targets.ownersOf(related, principal, [id], scope, em) : [];
  }

  private async write(
    resource: ResourceMeta,
    entity: Record<string, any>,
    body: unknown,
    operation: WriteOperation,
    principal: Principal,
    hooks: ResourceHooks,
    em: EntityManager,
    request?: Request,
  ): Promise<unknown> {
    const { ctx, violations } = await this.checked(
      resource,
      entity,
      body,
      operation,
      principal,
      hooks,
      em,
      request,
    );
    const all = [...violations];
    if (all.length === 0) all.push(...((await hooks.validate?.(entity, ctx)) ?? []));
    if (all.length === 0) all.push(...(await this.writeRules.run(entity, ctx)));
    if (all.length > 0) throw new ValidationError(all);
    if (hooks.persist) await hooks.persist(entity, ctx);
    else await em.save(entity);
    await hooks.afterWrite?.(entity, ctx);
    return ctx.state;
  }

  /**
   * A write's steps up to the resource's own database rules: begin, the body applied
   * (denormalized), prepare, where it may be written, the constraints and property validators.
   * Answers the write's context and the violations so far.
   */
  private async checked(
    resource: ResourceMeta,
    entity: Record<string, any>,
    body: unknown,
    operation: WriteOperation,
    principal: Principal,
    hooks: ResourceHooks,
    em: EntityManager,
    request?: Request,
    batch = false,
  ): Promise<{ ctx: WriteContext; violations: Violation[] }> {
    const state = await hooks.begin?.(entity, {
      principal,
      operation,
      resource,
      em,
      body: body as Record<string, unknown>,
      nested: {},
      request,
      state: undefined,
      ...(batch ? { batch } : {}),
    });
    if (operation === 'put' && resource.options.replaceOnPut)
      resetOmittedOnPut(resource, entity, body);
    const { violations, nested, nestedElements } = await this.denormalizer.apply(
      resource,
      entity,
      body,
      operation,
      principal,
      em,
      { existenceCheckedBy: new Set(hooks.checksReferences) },
    );
    const ctx: WriteContext = {
      principal,
      operation,
      resource,
      em,
      body: body as Record<string, unknown>,
      nested,
      nestedElements,
      request,
      state,
      ...(batch ? { batch } : {}),
    };
    if (violations.length === 0) await hooks.prepare?.(entity, ctx);
    // A new record, or a changed one moved (say, PUT with another `workspace`), must land
    // where the caller may write: the record's old place was checked when it was loaded.
    await this.assertWritable(resource, principal, em, { entity }, operation);
    const reported = new Set(violations.map((v) => v.propertyPath.replace(/\[\d+\]$/, '')));
    const all: Violation[] = [...violations];
    for (const v of await validateEntity(entity, operation))
      if (!reported.has(v.propertyPath)) all.push(v);
    if (all.length === 0) all.push(...(await this.propertyValidators.run(entity, ctx)));
    return { ctx, violations: all };
  }
}

/** Runs a nested write, reporting its violations under `pathPrefix` (`shipment.trackingNumber`). */
async function prefixViolations<T>(pathPrefix: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!pathPrefix || !(error instanceof ValidationError)) throw error;
    throw new ValidationError(prefixed(pathPrefix, error.violations), error.extra);
  }
}

/** Violations reported under `pathPrefix` (`shipmentItems[1].qty`). */
function prefixed(pathPrefix: string, violations: Violation[]): Violation[] {
  if (!pathPrefix) return violations;
  return violations.map((v) => ({
    ...v,
    propertyPath: v.propertyPath ? `${pathPrefix}.${v.propertyPath}` : pathPrefix,
  }));
}
