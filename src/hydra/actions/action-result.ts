import type { Readable } from 'node:stream';
import type { CollectionResult } from '../query/pagination';
import type { ApiRecord } from '../core/api-record';
import type { ActionContext, ActionOutput, AnswerKinds, OutputClass } from './action-declaration';
import type { ResourceHooks } from '../core/resource-hooks';

/**
 * What a `{ collection }` action returns: the conditions that select its records, on top of
 * the tenancy, the query string's filters and pagination that the layer applies itself.
 */
export interface CollectionQuery {
  /** Constraints by property path (`workspace` -> id), like nested routes. */
  scope?: Array<{ path: string; id: string }>;
  /** Extra SQL conditions (`scopeCollection`). */
  hooks?: ResourceHooks;
  maxItemsPerPage?: number;
}

/**
 * A page a `{ collection }` action computed itself, for records that are not the rows of one
 * query (built-in fields listed with stored ones): answered as is, in every format.
 */
export class CollectionPage {
  constructor(readonly result: CollectionResult) {}
}

/** A value answered with another status than the declared one, and/or extra headers. */
export class Answer<T = unknown> {
  constructor(
    readonly value: T,
    readonly status?: number,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/**
 * A protocol's own error body (OAuth 2's `{error}`), answered with its status instead of the
 * declared output; the declaration documents it in `responses`. Any action may return one.
 */
export class ErrorAnswer extends Answer<object> {
  /** Keeps an ordinary Answer of another shape from passing for one. */
  private readonly protocolError = true;
}

/** An HTML page (`{ html: true }` actions). */
export interface HtmlPage {
  html: string;
  status?: number;
  headers?: Readonly<Record<string, string>>;
}

/** A redirect (`{ redirect: true }` actions). */
export interface Redirect {
  url: string;
  status?: 301 | 302 | 303 | 307;
  headers?: Readonly<Record<string, string>>;
}

/** A file (`{ file }` actions): its bytes, whole or streamed, with its type and headers. */
export interface SentFile {
  type: string;
  body: Buffer | Readable;
  /** Bytes of a stream (a buffer's are known). */
  length?: number;
  headers?: Readonly<Record<string, string>>;
}

/** The page a `{ oneOf }` action answers (a browser's form gets it). */
export class PageAnswer {
  constructor(readonly page: HtmlPage) {}
}

/** The redirect a `{ oneOf }` action answers. */
export class RedirectAnswer {
  constructor(readonly redirect: Redirect) {}
}

/**
 * A `{ json }` answer that is not a stored resource, shaped like API Platform's DTO outputs:
 * in JSON-LD with `@context` (`/contexts/<type>`), `@id` (default: the request path) and
 * `@type`; in plain JSON the payload alone.
 */
export function typedJson<T extends object>(
  context: ActionContext,
  type: string,
  payload: T,
  id?: string,
): T {
  if (context.format === 'json') return payload;
  return {
    '@context': `/contexts/${type}`,
    '@id': id ?? context.url.split('?')[0],
    '@type': type,
    ...payload,
  };
}

/**
 * A `{ json: [Class] }` answer: in JSON the members as an array; in JSON-LD a hydra:Collection
 * of them (`@id` the request path), each with its `@id` (`iriOf`) and `@type`.
 */
export function typedList<T extends object>(
  context: ActionContext,
  type: string,
  members: T[],
  iriOf: (member: T) => string,
): T[] {
  // JSON: the bare array; CSV (an action declaring it in `formats`): one line per member.
  if (context.format === 'json' || context.format === 'csv') return members;
  const collection = {
    '@context': `/contexts/${type}`,
    '@id': context.url.split('?')[0],
    '@type': 'hydra:Collection',
    'hydra:member': members.map((m) => ({ '@id': iriOf(m), '@type': type, ...m })),
    'hydra:totalItems': members.length,
  };
  // The JSON-LD form of the list: documented as such (action-schemas.ts).
  return collection as unknown as T[];
}

/** The value an output class describes. */
type Shape<C> = C extends readonly [infer E]
  ? Array<Shape<E>>
  : C extends OutputClass<infer T>
    ? T
    : never;

/** What a `{ oneOf }` handler may return: the JSON value, a page, a redirect. */
type OneOfValue<K extends AnswerKinds> =
  | (K extends { json: infer C } ? Shape<C> : never)
  | (K extends { html: true } ? PageAnswer : never)
  | (K extends { redirect: true } ? RedirectAnswer : never);

/** What a handler returns for each kind of output (action-declaration.ts). */
export type ActionValue<O extends ActionOutput> = O extends 'none'
  ? void
  : O extends { item: Function }
    ? string | ApiRecord
    : O extends { collection: Function }
      ? CollectionQuery | CollectionPage | readonly string[] | string | void
      : O extends { json: infer C }
        ? Shape<C>
        : O extends { html: true }
          ? HtmlPage | string
          : O extends { redirect: true }
            ? Redirect
            : O extends { file: readonly string[] }
              ? SentFile
              : O extends { oneOf: infer K extends AnswerKinds }
                ? OneOfValue<K>
                : never;

/**
 * The return type the `@Action` decorator demands of a handler: the output's value, or that
 * value in an `Answer` (another status, headers), possibly as a promise.
 */
export type ActionResult<O extends ActionOutput> =
  | ActionValue<O>
  | Answer<ActionValue<O>>
  | ErrorAnswer
  | Promise<ActionValue<O> | Answer<ActionValue<O>> | ErrorAnswer>;
