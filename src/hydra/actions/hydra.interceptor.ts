import {
  Injectable,
  type OnApplicationBootstrap,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { mergeMap, of, type Observable } from 'rxjs';
import { assertAccess, scopeOf } from '../../access/access-level';
import type { TargetLocator } from '../../access/access-target';
import { principalOf } from '../../access/current-principal';
import type { Principal } from '../../access/principal';
import { DataProvider } from '../collection/data-provider';
import { coerceForm } from '../core/form';
import { ApiError, NotFoundError } from '../../common/errors/api-errors';
import type { ResourceMeta } from '../core/resource-meta';
import { ResourceRegistry } from '../metadata/resource-registry';
import { QueryParams } from '../core/query-params';
import type { Format } from '../serialization/negotiation';
import { MultipartReader } from '../serialization/multipart-reader';
import { JSON_FORMATS, Responder } from './responder';
import { ACTION, type ActionDeclaration } from './action-declaration';
import { HttpActionContext } from './action-context';
import { isFormPost, readActionInput } from './action-input';
import { setActionRequest } from './action-request';
import {
  Answer,
  CollectionPage,
  type CollectionQuery,
  type HtmlPage,
  PageAnswer,
  type Redirect,
  RedirectAnswer,
  type SentFile,
} from './action-result';
import { AccessTargets } from '../collection/access-targets';
import { requestReplaysOf, type RequestReplays } from './request-replays';

const ALL_FORMATS: readonly Format[] = ['jsonld', 'json', 'csv', 'html'];

/**
 * Turns declared actions into HTTP: before the handler, content negotiation (406), the input
 * DTO (415/400/422) and the declared workspace or team access (404/403); after it, the value
 * in the negotiated format (Hydra envelope, JSON, CSV streamed from the cursor, HTML).
 * Authentication happened in the AccessGuard; routes without `@Action` pass through.
 */
@Injectable()
export class HydraInterceptor implements NestInterceptor, OnApplicationBootstrap {
  private replays: RequestReplays | undefined;

  constructor(
    private readonly reflector: Reflector,
    private readonly responder: Responder,
    private readonly data: DataProvider,
    private readonly registry: ResourceRegistry,
    private readonly targets: AccessTargets,
    private readonly multipart: MultipartReader,
    private readonly moduleRef: ModuleRef,
  ) {}

  onApplicationBootstrap(): void {
    this.replays = requestReplaysOf(this.moduleRef);
  }

  /**
   * One pass per request: prepare (negotiation, multipart body, input, access), the handler,
   * then the answer; async rather than an rxjs pipeline of promises, which costs a small
   * request measurably (bench/README.md).
   */
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const declaration = this.reflector.get<ActionDeclaration | undefined>(
      ACTION,
      context.getHandler(),
    );
    if (!declaration) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (await this.prepare(declaration, req, res)) return of(undefined);
    return next.handle().pipe(mergeMap((value) => this.write(declaration, req, res, value)));
  }

  /** True when the answer is written already (a replay): the handler must not run. */
  private async prepare(
    declaration: ActionDeclaration,
    req: Request,
    res: Response,
  ): Promise<boolean> {
    const formats = offeredFormats(declaration, req);
    const format = formats ? this.responder.negotiate(req, formats) : undefined;
    const principal = principalOf(req);
    await this.multipart.read(req, res, declaration.uploads);
    // A POST repeated with its Idempotency-Key gets the first answer again, without the work;
    // from here on what it answers is kept, refusals of its input or target included (a
    // retry after the work was done must not find its target gone and answer 404).
    if (req.method === 'POST' && this.replays && (await this.replays.begin(req, res, principal)))
      return true;
    const input = await readActionInput(declaration, req, (target, body) =>
      coerceForm(this.registry.get(target), body),
    );
    const located = principal
      ? await this.checkTargets(declaration, principal, input, req.params as Record<string, string>)
      : [];
    const scope = scopeOf(declaration.access);
    setActionRequest(req, {
      input,
      principal,
      context: new HttpActionContext(req, format, located, scope === 'none' ? undefined : scope),
    });
    return false;
  }

  private async checkTargets(
    declaration: ActionDeclaration,
    principal: Principal,
    input: Record<string, unknown>,
    params: Readonly<Record<string, string>>,
  ): Promise<readonly string[]> {
    const scope = scopeOf(declaration.access);
    if (scope === 'none') return [];
    const locate: TargetLocator | undefined = declaration[scope];
    if (!locate) return [];
    const found = await locate({
      input,
      params,
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
      if (typeof value === 'string')
        await this.writeItem(req, res, resource, principal, value, status);
      else this.responder.item(req, res, resource, value as Record<string, unknown>, status);
    } else if ('collection' in output) {
      const resource = this.registry.get(output.collection);
      if (typeof value === 'string') {
        await this.writeItem(req, res, resource, principal, value, 200);
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
      this.writeJson(declaration, req, res, value, status);
    } else if ('html' in output) {
      sendPage(res, typeof value === 'string' ? { html: value } : (value as HtmlPage), status);
    } else if ('redirect' in output) {
      sendRedirect(res, value as Redirect);
    } else if ('file' in output) {
      await sendFile(res, value as SentFile, status);
    } else if ('oneOf' in output) {
      if (value instanceof PageAnswer) sendPage(res, value.page, status);
      else if (value instanceof RedirectAnswer) sendRedirect(res, value.redirect);
      else this.writeJson(declaration, req, res, value, status);
    } else {
      throw new ApiError(500, 'Unknown action output');
    }
  }

  /**
   * The item `id` read with the caller's tenancy (404 when missing or foreign): JSON-LD and
   * JSON as the text PostgreSQL renders, the other formats from the record.
   */
  private async writeItem(
    req: Request,
    res: Response,
    resource: ResourceMeta,
    principal: Principal | null,
    id: string,
    status: number,
  ): Promise<void> {
    const format = this.responder.negotiate(req);
    if (format === 'jsonld' || format === 'json') {
      const item = await this.data.findJson(resource, principal, id);
      if (!item) throw new NotFoundError();
      this.responder.itemJson(res, resource, item, format, status);
      return;
    }
    this.responder.item(req, res, resource, await this.data.get(resource, principal, id), status);
  }

  private writeJson(
    declaration: ActionDeclaration,
    req: Request,
    res: Response,
    value: unknown,
    status: number,
  ): void {
    if (declaration.formats === 'any') res.status(status).json(value);
    else this.responder.json(req, res, value, status, declaration.formats);
  }
}

function sendPage(res: Response, page: HtmlPage, status: number): void {
  for (const [name, v] of Object.entries(page.headers ?? {})) res.setHeader(name, v);
  res
    .status(page.status ?? status)
    .type('html')
    .send(page.html);
}

async function sendFile(res: Response, file: SentFile, status: number): Promise<void> {
  for (const [name, v] of Object.entries(file.headers ?? {})) res.setHeader(name, v);
  res.status(status);
  res.setHeader('Content-Type', file.type);
  const length = Buffer.isBuffer(file.body) ? file.body.length : file.length;
  if (length !== undefined) res.setHeader('Content-Length', String(length));
  if (Buffer.isBuffer(file.body)) res.end(file.body);
  else {
    await pipeline(file.body, res).catch((error: unknown) => {
      // The client went away mid-download: nothing left to answer, nothing to report.
      if ((error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE' && res.destroyed)
        return;
      throw error;
    });
  }
}

function sendRedirect(res: Response, redirect: Redirect): void {
  for (const [name, v] of Object.entries(redirect.headers ?? {})) res.setHeader(name, v);
  res.redirect(redirect.status ?? 302, redirect.url);
}

/** The formats negotiated before the handler runs; undefined: none (Accept is not read). */
function offeredFormats(
  declaration: ActionDeclaration,
  req: Request,
): readonly Format[] | undefined {
  const form = declaration.form;
  const formats =
    typeof form === 'object' && form.formats && isFormPost(req)
      ? form.formats
      : declaration.formats;
  if (formats === 'any') return undefined;
  if (formats) return formats;
  const output = declaration.output;
  if (output === 'none' || 'html' in output || 'redirect' in output || 'file' in output)
    return undefined;
  if ('oneOf' in output) return output.oneOf.json ? JSON_FORMATS : undefined;
  return 'json' in output ? JSON_FORMATS : ALL_FORMATS;
}
