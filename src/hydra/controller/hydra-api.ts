import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../../access/principal';
import { DataProvider } from '../collection/data-provider';
import { NotFoundError } from '../../common/errors/api-errors';
import { itemIdentifier } from '../core/identifiers';
import type { ResourceMeta } from '../core/resource-meta';
import { ResourceRegistry } from '../metadata/resource-registry';
import { relationTarget } from '../metadata/search-variables';
import { ResourceWriter } from '../write/resource-writer';
import { coerceForm, isFormBody } from '../core/form';

/**
 * The pieces the generated resource operations share (declared actions answered by the
 * HydraInterceptor): the registry, the data provider, the writer, form bodies, route scopes.
 */
@Injectable()
export class HydraApi {
  constructor(
    readonly registry: ResourceRegistry,
    readonly data: DataProvider,
    readonly writer: ResourceWriter,
  ) {}

  resource(target: Function): ResourceMeta {
    return this.registry.get(target);
  }

  /** A write's body with form fields read as the declared types (JSON bodies as they are). */
  formBody(
    resource: ResourceMeta,
    body: Record<string, unknown>,
    contentType: string | undefined,
  ): Record<string, unknown> {
    return isFormBody(contentType) ? coerceForm(resource, body) : body;
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

export function routeParam(req: Request, name: string): string {
  const v = req.params[name] as string | string[] | undefined;
  return Array.isArray(v) ? v[0] : (v ?? '');
}
