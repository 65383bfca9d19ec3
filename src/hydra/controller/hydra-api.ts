import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { principalOf } from '../../access/current-principal';
import type { Principal } from '../../access/principal';
import { DataProvider } from '../collection/data-provider';
import { ApiError, NotFoundError } from '../errors/api-errors';
import { itemIdentifier } from '../metadata/resource-identifier';
import type { ResourceMeta } from '../metadata/resource-metadata';
import { ResourceRegistry } from '../metadata/resource-registry';
import { relationTarget } from '../metadata/search-variables';
import { QueryParams } from '../query/query-params';
import { isAcceptedBodyType } from '../serialization/negotiation';
import { Responder } from '../serialization/responder';
import type { ResourceHooks } from '../write/resource-hooks';
import { ResourceWriter } from '../write/resource-writer';

/**
 * The five operations every resource has, driven by its declaration. Resource
 * controllers call these (the generated ones do nothing else); custom
 * endpoints reuse the same pieces.
 */
@Injectable()
export class HydraApi {
  constructor(
    readonly registry: ResourceRegistry,
    readonly data: DataProvider,
    readonly writer: ResourceWriter,
    readonly responder: Responder,
  ) {}

  resource(target: Function): ResourceMeta {
    return this.registry.get(target);
  }

  async list(
    target: Function,
    req: Request,
    res: Response,
    hooks: ResourceHooks = {},
    nestedParams: Record<string, string> = {},
    maxItemsPerPage?: number,
  ): Promise<void> {
    const resource = this.resource(target);
    const format = this.responder.negotiate(req);
    const principal = principalOf(req);
    const scope = await this.routeScope(
      resource,
      req.params as Record<string, string>,
      principal,
      nestedParams,
    );
    const params = QueryParams.fromUrl(req.originalUrl);
    const collection = { resource, principal, params, scope, hooks, request: req, maxItemsPerPage };
    if (format === 'csv') {
      await this.responder.csvCollection(req, res, collection);
      return;
    }
    const result = await this.data.list(collection);
    this.responder.collection(req, res, resource, result);
  }

  requirePrincipal(req: Request): Principal {
    const principal = principalOf(req);
    if (!principal)
      throw new ApiError(401, 'Full authentication is required to access this resource.', {
        'WWW-Authenticate': 'Bearer',
      });
    return principal;
  }

  /** The request body of a write; 415 for media types we do not read. */
  body(req: Request, resource?: ResourceMeta): Record<string, unknown> {
    const type = req.headers['content-type'];
    if (!isAcceptedBodyType(type)) {
      throw new ApiError(
        415,
        `The content-type "${type ?? ''}" is not supported. Supported MIME types are "application/ld+json", "application/json", "application/x-www-form-urlencoded", "multipart/form-data".`,
      );
    }
    const body = req.body as unknown;
    if (body === undefined) return {};
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiError(400, 'The input data must be an object.');
    }
    const form = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type ?? '');
    return form && resource
      ? coerceForm(resource, body as Record<string, unknown>)
      : (body as Record<string, unknown>);
  }

  /** A write's body with form fields read as the declared types (JSON bodies as they are). */
  formBody(
    resource: ResourceMeta,
    body: Record<string, unknown>,
    contentType: string | undefined,
  ): Record<string, unknown> {
    const form = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(
      contentType ?? '',
    );
    return form ? coerceForm(resource, body) : body;
  }

  /**
   * Nested collection routes: each parent must be visible to the caller (404
   * otherwise, like a missing one) and constrains the collection.
   */
  async routeScope(
    resource: ResourceMeta,
    params: Record<string, string>,
    principal: Principal | null,
    nestedParams: Record<string, string>,
  ) {
    const scope: Array<{ path: string; id: string }> = [];
    for (const [param, path] of Object.entries(nestedParams)) {
      const parent = relationTarget(this.registry, resource, path);
      const id = parent ? itemIdentifier(parent, params[param] ?? '') : null;
      if (!parent || id === null || !(await this.data.visible(parent, principal, id)))
        throw new NotFoundError();
      scope.push({ path, id });
    }
    return scope;
  }
}

/** Form fields arrive as strings; read them as the declared types. */
export function coerceForm(
  resource: ResourceMeta,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const prop of resource.properties) {
    const v = out[prop.name];
    if (typeof v !== 'string') continue;
    if (prop.type === 'integer' && /^-?\d+$/.test(v)) out[prop.name] = Number(v);
    else if (prop.type === 'number' && /^-?\d+(\.\d+)?$/.test(v)) out[prop.name] = Number(v);
    else if (prop.type === 'boolean' && /^(true|false|1|0)$/i.test(v))
      out[prop.name] = /^(true|1)$/i.test(v);
    else if (v === '' && prop.nullable) out[prop.name] = null;
  }
  return out;
}

export function routeParam(req: Request, name: string): string {
  const v = req.params[name] as string | string[] | undefined;
  return Array.isArray(v) ? v[0] : (v ?? '');
}
