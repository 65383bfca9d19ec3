import type { Request } from 'express';
import type { Format } from '../serialization/negotiation';
import type { ActionContextBase, UploadedFile } from './action-declaration';

/**
 * The ActionContext of an HTTP request. Its members are read from the request when a handler
 * asks for them: most handlers read `params` only, while `ip`, `origin` and `files` go through
 * Express's proxy-aware getters or build objects, which a look-up should not pay for.
 */
export class HttpActionContext implements ActionContextBase {
  private filesByField?: Record<string, UploadedFile[]>;
  private queryParams?: Readonly<Record<string, unknown>>;
  readonly workspaceId?: string;
  readonly teamId?: string;

  constructor(
    readonly request: Request,
    readonly format: Format | undefined,
    /** The ids the declared locator found (access-checked), and their scope. */
    located: readonly string[] = [],
    scope?: 'workspace' | 'team',
  ) {
    if (located.length === 1 && scope === 'workspace') this.workspaceId = located[0];
    if (located.length === 1 && scope === 'team') this.teamId = located[0];
  }

  get params(): Readonly<Record<string, string>> {
    return this.request.params as Record<string, string>;
  }

  /** Read once: Express 5 parses the query string again on every `req.query`. */
  get query(): Readonly<Record<string, unknown>> {
    return (this.queryParams ??= this.request.query as Record<string, unknown>);
  }

  get url(): string {
    return this.request.originalUrl;
  }

  get ip(): string {
    return this.request.ip ?? '';
  }

  get origin(): string {
    return requestOrigin(this.request);
  }

  get requestId(): string {
    return String((this.request as Request & { id?: unknown }).id ?? '');
  }

  get rawBody(): Buffer | undefined {
    return (this.request as Request & { rawBody?: Buffer }).rawBody;
  }

  get files(): Readonly<Record<string, readonly UploadedFile[]>> {
    if (!this.filesByField) {
      this.filesByField = {};
      for (const file of (this.request.files as UploadedFile[] | undefined) ?? [])
        (this.filesByField[file.fieldname] ??= []).push(file);
    }
    return this.filesByField;
  }

  header(name: string): string | undefined {
    const v = this.request.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }
}

/** `scheme://host` of a request: the scheme as TRUST_PROXY lets Express read it, the Host. */
export function requestOrigin(request: Request): string {
  return `${request.protocol}://${request.get('host') ?? ''}`;
}
