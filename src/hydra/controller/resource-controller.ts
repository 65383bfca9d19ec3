import { Controller, Inject, Optional, Type } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import type { ActionContext, ActionDeclaration } from '../actions/action-declaration';
import { Action } from '../actions/action.decorator';
import { Answer, type CollectionQuery } from '../actions/action-result';
import { Operation } from '../core/declaration';
import { getResourceOptions } from '../metadata/decorators';
import { resourceAccess, resourceDelegation } from '../metadata/resource-access';
import type { ResourceHooks } from '../core/resource-hooks';
import { HydraApi } from './hydra-api';

const ALL: Operation[] = ['list', 'get', 'post', 'put', 'delete'];
const NO_HOOKS = Symbol('hydra:noHooks');

/** The actions generated from resource declarations (the docs read the declarations). */
const generated = new WeakSet<ActionDeclaration>();

/** Whether an action is one a ResourceController generated from its resource's declaration. */
export function isGeneratedAction(declaration: ActionDeclaration): boolean {
  return generated.has(declaration);
}

type Handler = (
  this: { api: HydraApi; hooks: ResourceHooks | undefined },
  input: Record<string, unknown>,
  principal: Principal,
  context: ActionContext,
) => Promise<unknown> | unknown;

/**
 * Builds the controller of a resource from its declaration: collection and nested collection
 * routes, item, create, replace, delete, each a declared action (access from the resource's
 * declaration) whose answer the HydraInterceptor writes. A resource module writes
 * `class XController extends ResourceController(X, XService) {}` and adds `@Action`s only for
 * what is not CRUD.
 */
export function ResourceController(target: Function, hooksType?: Type<ResourceHooks>): Type<any> {
  const options = getResourceOptions(target);
  if (!options) throw new Error(`${target.name} has no @ApiResource`);
  const ops = new Set(options.operations ?? ALL);
  const item = `${options.path}/:id`;
  const name = options.shortName ?? target.name;

  class GeneratedResourceController {
    constructor(
      readonly api: HydraApi,
      readonly hooks: ResourceHooks | undefined,
    ) {}
  }
  Inject(HydraApi)(GeneratedResourceController, undefined as any, 0);
  Inject(hooksType ?? NO_HOOKS)(GeneratedResourceController, undefined as any, 1);
  Optional()(GeneratedResourceController, undefined as any, 1);

  const proto = GeneratedResourceController.prototype as any;
  const define = (
    method: string,
    operation: Operation,
    declaration: Omit<Parameters<typeof Action>[0], 'access' | 'delegated'>,
    fn: Handler,
  ) => {
    Object.defineProperty(proto, method, { value: fn, writable: true, configurable: true });
    const descriptor = Object.getOwnPropertyDescriptor(proto, method)!;
    const full = {
      ...declaration,
      access: resourceAccess(options, operation),
      delegated: resourceDelegation(options, operation),
    };
    generated.add(full);
    Action(full)(proto, method, descriptor);
  };

  if (ops.has('list')) {
    const list = (params: Record<string, string>, max?: number): Handler =>
      async function (_input, principal, context): Promise<CollectionQuery> {
        return {
          scope: await this.api.routeScope(
            this.api.resource(target),
            context.params,
            principal,
            params,
          ),
          hooks: this.hooks ?? {},
          maxItemsPerPage: max,
        };
      };
    const summary = `Retrieves the collection of ${name} resources.`;
    define(
      'list',
      'list',
      { method: 'GET', path: options.path, summary, output: { collection: target } },
      list({}),
    );
    (options.nested ?? []).forEach((nested, i) =>
      define(
        `listNested${i}`,
        'list',
        { method: 'GET', path: nested.path, summary, output: { collection: target } },
        list(nested.params, nested.maxItemsPerPage),
      ),
    );
  }
  if (ops.has('get')) {
    define(
      'get',
      'get',
      {
        method: 'GET',
        path: item,
        summary: `Retrieves a ${name} resource.`,
        output: { item: target },
      },
      (_input, _principal, context) => context.params.id,
    );
  }
  if (ops.has('post')) {
    define(
      'create',
      'post',
      {
        method: 'POST',
        path: options.path,
        summary: `Creates a ${name} resource.`,
        output: { item: target },
        status: 201,
      },
      async function (input, principal, context) {
        const resource = this.api.resource(target);
        const body = this.api.formBody(resource, input, context.header('content-type'));
        const created = await this.api.writer.createAndRead(
          resource,
          body,
          principal,
          this.hooks ?? {},
          context.request,
        );
        // The record when the write read it already; else the id, read with the caller's tenancy.
        return created.record ?? created.id;
      },
    );
  }
  if (ops.has('put')) {
    define(
      'replace',
      'put',
      {
        method: 'PUT',
        path: item,
        summary: `Replaces the ${name} resource.`,
        output: { item: target },
      },
      async function (input, principal, context) {
        const resource = this.api.resource(target);
        const body = this.api.formBody(resource, input, context.header('content-type'));
        const id = context.params.id;
        await this.api.writer.replace(
          resource,
          id,
          body,
          principal,
          this.hooks ?? {},
          context.request,
        );
        return id;
      },
    );
  }
  if (ops.has('delete')) {
    define(
      'remove',
      'delete',
      { method: 'DELETE', path: item, summary: `Removes the ${name} resource.`, output: 'none' },
      async function (_input, principal, context) {
        const resource = this.api.resource(target);
        await this.api.writer.remove(
          resource,
          context.params.id,
          principal,
          this.hooks ?? {},
          context.request,
        );
        return new Answer(undefined, 204);
      },
    );
  }

  Controller()(GeneratedResourceController);
  Object.defineProperty(GeneratedResourceController, 'name', {
    value: `${target.name}ResourceController`,
  });
  return GeneratedResourceController;
}
