import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Optional,
  Post,
  Put,
  Req,
  Res,
  Type,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../access/access.decorator';
import { resourceAccess } from '../metadata/resource-access';
import { Operation, getResourceOptions } from '../metadata/decorators';
import type { ResourceHooks } from '../write/resource-hooks';
import { HydraApi } from './hydra-api';

const ALL: Operation[] = ['list', 'get', 'post', 'put', 'delete'];
const NO_HOOKS = Symbol('hydra:noHooks');

/**
 * Builds the controller of a resource from its declaration: collection and
 * nested collection routes, item, create, replace, delete. A resource module
 * writes `class XController extends ResourceController(X, XService) {}` and
 * adds methods only for endpoints that are not CRUD.
 */
export function ResourceController(target: Function, hooksType?: Type<ResourceHooks>): Type<any> {
  const options = getResourceOptions(target);
  if (!options) throw new Error(`${target.name} has no @ApiResource`);
  const ops = new Set(options.operations ?? ALL);
  const item = `${options.path}/:id`;

  class GeneratedResourceController {
    constructor(
      readonly api: HydraApi,
      readonly hooks: ResourceHooks,
    ) {}
  }
  Inject(HydraApi)(GeneratedResourceController, undefined as any, 0);
  Inject(hooksType ?? NO_HOOKS)(GeneratedResourceController, undefined as any, 1);
  Optional()(GeneratedResourceController, undefined as any, 1);

  const proto = GeneratedResourceController.prototype as any;
  const define = (
    name: string,
    fn: (this: GeneratedResourceController, req: Request, res: Response) => Promise<void>,
    decorators: MethodDecorator[],
  ) => {
    const operation: Operation = name.startsWith('list')
      ? 'list'
      : name === 'create'
        ? 'post'
        : name === 'replace'
          ? 'put'
          : name === 'remove'
            ? 'delete'
            : 'get';
    decorators = [...decorators, Access(resourceAccess(options, operation))];
    Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true });
    Req()(proto, name, 0);
    Res()(proto, name, 1);
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
    for (const d of decorators) d(proto, name, descriptor);
  };

  if (ops.has('list')) {
    define(
      'list',
      function (req, res) {
        return this.api.list(target, req, res, this.hooks ?? {});
      },
      [Get(options.path)],
    );
    (options.nested ?? []).forEach((nested, i) => {
      define(
        `listNested${i}`,
        function (req, res) {
          return this.api.list(
            target,
            req,
            res,
            this.hooks ?? {},
            nested.params,
            nested.maxItemsPerPage,
          );
        },
        [Get(nested.path)],
      );
    });
  }
  if (ops.has('get')) {
    define(
      'get',
      function (req, res) {
        return this.api.get(target, req, res);
      },
      [Get(item)],
    );
  }
  if (ops.has('post')) {
    define(
      'create',
      function (req, res) {
        return this.api.create(target, req, res, this.hooks ?? {});
      },
      [Post(options.path), HttpCode(201)],
    );
  }
  if (ops.has('put')) {
    define(
      'replace',
      function (req, res) {
        return this.api.replace(target, req, res, this.hooks ?? {});
      },
      [Put(item)],
    );
  }
  if (ops.has('delete')) {
    define(
      'remove',
      function (req, res) {
        return this.api.remove(target, req, res, this.hooks ?? {});
      },
      [Delete(item), HttpCode(204)],
    );
  }

  Controller()(GeneratedResourceController);
  Object.defineProperty(GeneratedResourceController, 'name', {
    value: `${target.name}ResourceController`,
  });
  return GeneratedResourceController;
}
