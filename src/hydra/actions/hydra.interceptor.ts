import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, mergeMap, switchMap, type Observable } from 'rxjs';
import { assertAccess, scopeOf } from '../../access/access-level';
import type { TargetLocator } from '../../access/access-target';
import { principalOf } from '../../access/current-principal';
import type { Principal } from '../../access/principal';
import { DataProvider } from '../collection/data-provider';
import { coerceForm } from '../controller/hydra-api';
import { ApiError } from '../errors/api-errors';
import { ResourceRegistry } from '../metadata/resource-registry';
import { QueryParams } from '../query/query-params';
import type { Format } from '../serialization/negotiation';
import { Responder } from '../serialization/responder';
import {
  ACTION,
  type ActionContext,
  type ActionDeclaration,
  type UploadedFile,
} from './action-declaration';
import { readActionInput } from './action-input';
import { setActionRequest } from './action-request';
import {
  Answer,
  CollectionPage,
  type CollectionQuery,
  type HtmlPage,
  type Redirect,
} from './action-result';
import { AccessTargets } from './access-targets';

const ALL_FORMATS: readonly Format[] = ['jsonld', 'json', 'csv', 'html'];
const JSON_FORMATS: readonly Format[] = ['jsonld', 'json'];

/**
 * Turns declared actions into HTTP: before the handler, content negotiation (406), the input
 * DTO (415/400/422) and the declared workspace or team access (404/403); after it, the value
 * in the negotiated format (Hydra envelope, JSON, CSV streamed from the cursor, HTML).
 * Authentication happened in the AccessGuard; routes without `@Action` pass through.
 */
@Injectable()
export class HydraInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly responder: Responder,
    private readonly data: DataProvider,
    private readonly registry: ResourceRegistry,
    private readonly targets: AccessTargets,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const declaration = this.reflector.get<ActionDeclaration | undefined>(
      ACTION,
      context.getHandler(),
    );
    if (!declaration) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return from(this.prepare(declaration, req)).pipe(
      switchMap(() => next.handle()),
      mergeMap((value) => from(this.write(declaration, req, res, value).then(() => null))),
    );
  }

  private async prepare(declaration: ActionDeclaration, req: Request): Promise<void> {
    const formats = offeredFormats(declaration);
    const format = formats ? this.responder.negotiate(req, formats) : undefined;
    const principal = principalOf(req);
    const input = await readActionInput(declaration, req, (target, body) =>
      coerceForm(this.registry.get(target), body),
    );
    const base = actionContext(req);
    const located = principal ? await this.checkTargets(declaration, principal, input, base) : [];
    setActionRequest(req, { input, principal, context: { ...base, format, located } });
  }

  private async checkTargets(
    declaration: ActionDeclaration,
    principal: Principal,
    input: Record<string, unknown>,
    context: Omit<ActionContext, 'located' | 'format'>,
  ): Promise<readonly string[]> {
    const scope = scopeOf(declaration.access);
    if (scope === 'none') return [];
    const locate: TargetLocator | undefined = declaration[scope];
    if (!locate) return [];
    const found = await locate({
      input,
      params: context.params,
      principal,
      targets: this.targets.for(principal),
    });
    if (found === undefined) return [];
    const ids = typeof found === 'string' ? [found] : found;
    for (const id of ids) {
      assertAccess(
        principal,
        declaration.access,
        scope === 'workspace' ? { workspaceId: id } : { teamId: id },
      );
    }
    return ids;
  }

  private async write(
    declaration: ActionDeclaration,
    req: Request,
    res: Response,
    returned: unknown,
  ): Promise<void> {
    const answer = returned instanceof Answer ? returned : undefined;
    const value = answer ? answer.value : returned;
    const status =
      answer?.status ?? declaration.status ?? (declaration.output === 'none' ? 204 : 200);
    for (const [name, v] of Object.entries(answer?.headers ?? {})) res.setHeader(name, v);
    const output = declaration.output;
    const principal = principalOf(req);
    if (output === 'none') {
      res.status(status).end();
    } else if ('item' in output) {
      const resource = this.registry.get(output.item);
      const record =
        typeof value === 'string'
          ? await this.data.get(resource, principal, value)
          : (value as Record<string, unknown>);
      this.responder.item(req, res, resource, record, status);
    } else if ('collection' in output) {
      const resource = this.registry.get(output.collection);
      if (typeof value === 'string') {
        this.responder.item(req, res, resource, await this.data.get(resource, principal, value));
        return;
      }
      if (value instanceof CollectionPage) {
        this.responder.collection(req, res, resource, value.result);
        return;
      }
      if (Array.isArray(value)) {
        const members = [];
        for (const id of value as string[])
          members.push(await this.data.get(resource, principal, id));
        this.responder.collection(req, res, resource, {
          members,
          totalItems: members.length,
          pagination: { page: 1, itemsPerPage: members.length, offset: 0 },
        });
        return;
      }
      const query = (value ?? {}) as CollectionQuery;
      const collection = {
        resource,
        principal,
        params: QueryParams.fromUrl(req.originalUrl),
        scope: query.scope ?? [],
        hooks: query.hooks ?? {},
        request: req,
        maxItemsPerPage: query.maxItemsPerPage,
      };
      if (this.responder.negotiate(req) === 'csv') {
        await this.responder.csvCollection(req, res, collection);
        return;
      }
      this.responder.collection(req, res, resource, await this.data.list(collection));
    } else if ('json' in output) {
      if (declaration.formats === 'any') res.status(status).json(value);
      else this.responder.json(req, res, value, status);
    } else if ('html' in output) {
      const page: HtmlPage = typeof value === 'string' ? { html: value } : (value as HtmlPage);
      for (const [name, v] of Object.entries(page.headers ?? {})) res.setHeader(name, v);
      res
        .status(page.status ?? status)
        .type('html')
        .send(page.html);
    } else if ('redirect' in output) {
      const redirect = value as Redirect;
      for (const [name, v] of Object.entries(redirect.headers ?? {})) res.setHeader(name, v);
      res.redirect(redirect.status ?? 302, redirect.url);
    } else {
      throw new ApiError(500, 'Unknown action output');
    }
  }
}

function offeredFormats(declaration: ActionDeclaration): readonly Format[] | undefined {
  if (declaration.formats === 'any') return undefined;
  if (declaration.formats) return declaration.formats;
  const output = declaration.output;
  if (output === 'none' || 'html' in output || 'redirect' in output) return undefined;
  return 'json' in output ? JSON_FORMATS : ALL_FORMATS;
}

function actionContext(req: Request): Omit<ActionContext, 'located' | 'format'> {
  const files: Record<string, UploadedFile[]> = {};
  for (const file of (req.files as UploadedFile[] | undefined) ?? []) {
    (files[file.fieldname] ??= []).push(file);
  }
  return {
    params: req.params as Record<string, string>,
    query: req.query as Record<string, unknown>,
    url: req.originalUrl,
    ip: req.ip ?? '',
    origin: `${req.protocol}://${req.get('host') ?? ''}`,
    requestId: String((req as Request & { id?: unknown }).id ?? ''),
    header: (name) => {
      const v = req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v.join(', ') : v;
    },
    files,
    rawBody: (req as Request & { rawBody?: Buffer }).rawBody,
    request: req,
  };
}
