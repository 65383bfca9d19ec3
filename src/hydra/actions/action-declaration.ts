import type { Type } from '@nestjs/common';
import type { Request } from 'express';
import type { AccessLevel } from '../../access/access-level';
import type { TargetLocator } from '../../access/access-target';
import type { UploadLimits } from '../serialization/multipart-reader';
import type { Format } from '../serialization/negotiation';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What an action answers; the handler's return value is read accordingly:
 * - `{ item: Resource }`: the id of a record (or the record) -> the resource in every format;
 * - `{ collection: Resource }`: a `CollectionQuery` -> a page with the query string's filters
 *   and pagination, in every format (CSV streamed from the cursor); or the ids of the records
 *   an action worked on -> those records as one page, in that order; or one id -> that record
 *   as an item (actions that answer one record or several, like the reference's); or a
 *   `CollectionPage` the action computed itself;
 * - `{ json: OutputClass }`: a value of that shape -> JSON-LD / JSON; the class's `@Documented`
 *   attributes give the OpenAPI schema, and the decorator checks the handler's return type
 *   against it;
 * - `{ html: true }`: an `HtmlPage` (or a string) -> text/html;
 * - `{ redirect: true }`: a `Redirect` -> 302/303 with Location;
 * - `{ file: types }`: a `SentFile` -> its bytes (a buffer or a stream) with its media type,
 *   one of `types` (for the docs), and its headers;
 * - `{ oneOf: { json?, html?, redirect? } }`: one of these kinds, chosen by the handler per
 *   request (a page's form gets a page or a redirect, API clients JSON): a `PageAnswer` ->
 *   text/html, a `RedirectAnswer` -> the redirect, any other value -> the JSON answer;
 * - `'none'`: nothing -> 204.
 */
/**
 * The class an action's JSON answer has: its properties carry `@Documented` (or `Typed`)
 * declarations, read for the OpenAPI schema (action-schemas.ts) as input DTOs are.
 */
export type OutputClass<T extends object = object> = new (...args: any[]) => T;

/** `[Class]`: a list of values of the class (a hydra:Collection in JSON-LD, see typedList). */
export type OutputList = readonly [OutputClass];

export type ActionOutput =
  | { item: Function }
  | { collection: Function }
  | { json: OutputClass | OutputList }
  | { html: true }
  | { redirect: true }
  | { file: readonly string[] }
  | { oneOf: AnswerKinds }
  | 'none';

/** The kinds of answer a `{ oneOf }` action chooses from (at least two). */
export interface AnswerKinds {
  /** The class of the JSON answer. */
  json?: OutputClass;
  html?: true;
  redirect?: true;
}

/** A documented answer (OpenAPI response object). */
export interface ResponseDoc {
  description: string;
  content?: Record<string, { schema: Record<string, unknown> }>;
  headers?: Record<string, { description?: string; schema: Record<string, unknown> }>;
}

export interface ActionDeclaration {
  method: HttpMethod;
  /** Express-style path (`/workspaces/:id/stats`). */
  path: string;
  /** One line: what the action does. */
  summary: string;
  /**
   * At most two sentences beside the summary (what it answers, what it changes); the rules in
   * detail belong in the module's README. The layer adds who may call it and its errors.
   */
  description?: string;
  /**
   * The input DTO (class-validator + class-transformer): the body of POST/PUT/PATCH, the
   * query string of GET/DELETE. Route parameters reach the handler in `ActionContext.params`.
   * A resource class instead (code-addressed records written by hand): the resource's own
   * body, read and validated by its write pipeline.
   */
  input?: Type<object>;
  output: ActionOutput;
  /** Success status (default: 204 for output 'none', else 200). */
  status?: number;
  access: AccessLevel;
  /**
   * Whether tokens granted to third-party applications (authorization code) may call it
   * (403 otherwise). Default: `delegatedByDefault(access)`, i.e. refused for `team:admin` and
   * `team:owner`; declare `false` for what else manages the account (the user, OAuth clients,
   * credentials, memberships).
   */
  delegated?: boolean;
  /** Where the workspace of a `workspace:*` action is found (see access-target.ts). */
  workspace?: TargetLocator;
  /** Where the team of a `team:*` action is found. */
  team?: TargetLocator;
  /**
   * Response formats offered, in the server's order of preference (default: by output);
   * `'any'`: no negotiation, a `{ json }` answer in plain JSON whatever the Accept header asks
   * (machine protocols: webhook receivers).
   */
  formats?: readonly Format[] | 'any';
  /** OpenAPI operation id (default: from the method and path). */
  operationId?: string;
  /** OpenAPI tag (default: the controller's). */
  tags?: string[];
  /**
   * The documented body of a POST/PUT/PATCH action without an input DTO (a provider's own
   * push payload); without it such an action documents an empty object.
   */
  bodySchema?: Record<string, unknown>;
  /**
   * The action takes file uploads (multipart/form-data), with these limits; other routes
   * read form fields only (MultipartReader, after authentication).
   */
  uploads?: UploadLimits | true;
  /** Body media types beyond JSON/JSON-LD/forms (e.g. multipart uploads, text/csv). */
  bodyTypes?: readonly string[];
  /**
   * The action also serves a page's form (a browser posting `application/x-www-form-urlencoded`),
   * documented beside the JSON body. `input`: the form's DTO when it differs from `input` (form
   * fields are strings); `formats`: what a form post may be answered in, when not `formats`
   * (`'any'`: the page or redirect the handler returns, whatever Accept says).
   */
  form?: true | { input?: Type<object>; formats?: readonly Format[] | 'any' };
  /**
   * A body the layer cannot read (another media type, not an object) reads as an empty one
   * instead of answering 415/400: for protocols that answer such requests with errors of their
   * own (OAuth 2's `invalid_request` / `invalid_client`).
   */
  lenientBody?: true;
  /**
   * Documented answers besides those the layer documents (a protocol's own error bodies, a
   * redirect), by status; an entry for the success status adds to it (its headers).
   */
  responses?: Readonly<Record<number, ResponseDoc>>;
}

/** The scopes an action's locators find: `'workspace?'` when the locator may find none. */
export type LocatedScope = 'workspace' | 'team' | 'workspace?' | 'team?';

/** The named ids of the located scopes (`ActionContext<'workspace'>` has `workspaceId`). */
export type LocatedIds<S extends LocatedScope> = ('workspace' extends S
  ? { readonly workspaceId: string }
  : 'workspace?' extends S
    ? { readonly workspaceId?: string }
    : unknown) &
  ('team' extends S
    ? { readonly teamId: string }
    : 'team?' extends S
      ? { readonly teamId?: string }
      : unknown);

/**
 * Who is calling and what the route said, for handlers (they never see req/res). A handler of
 * an action declaring `workspace` (or `team`) reads the id its locator found as
 * `context.workspaceId` (`teamId`), by taking an `ActionContext<'workspace'>`; `'workspace?'`
 * when the locator may find none (an optional `workspaceId` input). The decorator refuses such
 * a handler on an action without that locator.
 */
export type ActionContext<S extends LocatedScope = never> = ActionContextBase & LocatedIds<S>;

export interface ActionContextBase {
  /** Route parameters (`:id` ...), percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The raw query string parameters, for actions that pass them on (collections do). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The request URL (path and query), as received. */
  readonly url: string;
  /** Client address (after trusted proxies), for rate limits. */
  readonly ip: string;
  /** Scheme and host the request came to (after trusted proxies), for absolute links. */
  readonly origin: string;
  readonly requestId: string;
  /** Selected request headers (lower-case names), for actions whose protocol needs them. */
  header(name: string): string | undefined;
  /**
   * The negotiated response format (for `{ json }` answers whose JSON-LD form differs from
   * the plain JSON one); undefined for outputs that do not negotiate.
   */
  readonly format?: Format;
  /** Uploaded files of a multipart body (field name -> files). */
  readonly files: Readonly<Record<string, readonly UploadedFile[]>>;
  /** The raw body bytes, for receivers that check a signature over them. */
  readonly rawBody?: Buffer;
  /**
   * The workspace the declared `workspace` locator found, already access-checked: the handler
   * scopes its work to it instead of resolving the input's reference again. Undefined when the
   * locator found none (an optional `workspaceId` left out) or several (each was checked).
   */
  readonly workspaceId?: string;
  /** The team the declared `team` locator found, likewise. */
  readonly teamId?: string;
  /**
   * The request, handed on to the resource write pipeline's hooks (which key recursion
   * guards on it); handlers never read it.
   */
  readonly request: Request;
}

export interface UploadedFile {
  readonly fieldname: string;
  readonly originalname: string;
  readonly mimetype: string;
  readonly size: number;
  readonly buffer?: Buffer;
  readonly path?: string;
}

export const ACTION = 'hydra:action';
