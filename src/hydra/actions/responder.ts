import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CollectionRequest, DataProvider } from '../collection/data-provider';
import { CollectionResult } from '../query/pagination';
import { ApiError } from '../../common/errors/api-errors';
import type { ResourceMeta } from '../core/resource-meta';
import { ResourceRegistry } from '../metadata/resource-registry';
import { searchVariables } from '../metadata/search-variables';
import { QueryParams } from '../core/query-params';
import { csvDocument } from '../serialization/csv';
import { writeCollectionCsv } from '../collection/csv-stream';
import { htmlDocument } from '../serialization/html';
import { jsonLdCollectionJson } from '../serialization/jsonld';
import { Format, MEDIA_TYPES, negotiateFormat } from '../serialization/negotiation';
import type { ApiRecord } from '../core/api-record';
import { documentationLink } from '../serialization/documentation-link';
import { AppConfig } from '../../config/app-config';
import { requestBaseUrl } from '../../config/public-base-url';
import { requestOrigin } from './action-context';
import { noneMatchHits, representationTag } from '../../common/http/entity-tag';
import { type ItemSource, itemBody, lastModifiedOf } from '../serialization/item-representation';

/** The JSON formats: JSON-LD and plain JSON (actions' JSON answers, items' JSON text). */
export const JSON_FORMATS: readonly Format[] = ['jsonld', 'json'];

/** Writes resources in the negotiated format; the only place that knows the formats. */
@Injectable()
export class Responder {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
    private readonly config: AppConfig,
  ) {}

  /** The absolute `Link` header naming the Hydra documentation, for this request's client. */
  documentationLink(req: Request): string {
    return documentationLink(requestBaseUrl(this.config, requestOrigin(req)));
  }

  /** The response format for this request, or 406 before any work is done. */
  negotiate(req: Request, offered?: readonly Format[]): Format {
    const format = negotiateFormat(req.headers.accept, offered);
    if (!format) {
      throw new ApiError(
        406,
        `Requested format "${req.headers.accept}" is not supported. Supported MIME types are "${(offered ?? ['jsonld', 'json', 'csv', 'html']).map((f) => MEDIA_TYPES[f]).join('", "')}".`,
      );
    }
    (req as Request & { apiFormat?: Format }).apiFormat = format;
    return format;
  }

  item(req: Request, res: Response, resource: ResourceMeta, record: ApiRecord, status = 200): void {
    const format = this.negotiate(req);
    res.status(status);
    if (status === 201) this.setLocation(res, resource, record[resource.idProperty]);
    this.sendItem(res, format, resource, { record });
  }

  /**
   * An item whose JSON text PostgreSQL rendered (DataProvider.findJson), in JSON-LD or JSON:
   * the JSON-LD head is spliced in front of it, as jsonLdItem puts it in front of the record.
   */
  itemJson(
    res: Response,
    resource: ResourceMeta,
    item: { id: string; json: string },
    format: 'jsonld' | 'json',
    status = 200,
  ): void {
    res.status(status);
    if (status === 201) this.setLocation(res, resource, item.id);
    this.sendItem(res, format, resource, item);
  }

  /**
   * An item with its validators (README "API conventions"): a strong ETag hashing the exact
   * bytes (so each format has its own) and Last-Modified from `updatedAt`; a GET whose
   * If-None-Match names the tag gets 304 without a body.
   */
  private sendItem(res: Response, format: Format, resource: ResourceMeta, source: ItemSource) {
    const req = res.req;
    // Encoded once: the tag hashes these bytes and the socket gets them, where a string was
    // measured, hashed and written, each converting it to UTF-8 again.
    const body = Buffer.from(itemBody(format, resource, source));
    res.setHeader('Content-Type', `${MEDIA_TYPES[format]}; charset=utf-8`);
    if (format === 'jsonld' || format === 'json')
      res.setHeader('Link', this.documentationLink(req));
    const tag = representationTag(body);
    res.setHeader('ETag', tag);
    const modified = lastModifiedOf(source);
    if (modified) res.setHeader('Last-Modified', modified);
    const ifNoneMatch = req.headers['if-none-match'];
    if (
      ifNoneMatch !== undefined &&
      res.statusCode === 200 &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      noneMatchHits(ifNoneMatch, tag)
    ) {
      res.removeHeader('Content-Type');
      res.status(304).end();
      return;
    }
    writeBody(res, body);
  }

  collection(req: Request, res: Response, resource: ResourceMeta, result: CollectionResult): void {
    const format = this.negotiate(req);
    const path = req.path;
    const params = QueryParams.fromUrl(req.originalUrl);
    this.send(
      res,
      format,
      resource.shortName,
      () =>
        jsonLdCollectionJson(
          resource,
          path,
          params,
          result,
          searchVariables(this.registry, resource),
        ),
      () => result.members,
      () => result.members,
      result.totalItems,
    );
  }

  private setLocation(res: Response, resource: ResourceMeta, id: unknown): void {
    const iri = `${resource.path}/${id}`;
    res.setHeader('Location', iri);
    res.setHeader('Content-Location', iri);
  }

  /** Any JSON payload that is not a resource (action results), in JSON-LD or JSON. */
  json(
    req: Request,
    res: Response,
    body: unknown,
    status = 200,
    formats: readonly Format[] = JSON_FORMATS,
  ): void {
    const format = this.negotiate(req, formats);
    res.status(status).setHeader('Content-Type', `${MEDIA_TYPES[format]}; charset=utf-8`);
    // A list declared with `formats` including csv (typedList answers its members then).
    if (format === 'csv' && Array.isArray(body)) writeBody(res, csvDocument(body as ApiRecord[]));
    else writeBody(res, JSON.stringify(body));
  }

  /**
   * A collection page as CSV, streamed from a cursor: rows go from PostgreSQL
   * to the socket in batches, so a 50 000-row page holds one batch in memory.
   */
  async csvCollection(req: Request, res: Response, collection: CollectionRequest): Promise<void> {
    await writeCollectionCsv(this.data, this.registry, collection, res, {
      paginate: true,
      onStart: () => res.status(200).setHeader('Content-Type', 'text/csv; charset=utf-8'),
    });
  }

  private send(
    res: Response,
    format: Format,
    title: string,
    jsonld: () => unknown,
    json: () => unknown,
    records: () => ApiRecord[],
    totalItems?: number,
  ): void {
    switch (format) {
      case 'jsonld':
        res.setHeader('Content-Type', 'application/ld+json; charset=utf-8');
        res.setHeader('Link', this.documentationLink(res.req));
        {
          const body = jsonld();
          writeBody(res, typeof body === 'string' ? body : JSON.stringify(body));
        }
        return;
      case 'json':
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.setHeader('Link', this.documentationLink(res.req));
        {
          const body = json();
          writeBody(res, typeof body === 'string' ? body : JSON.stringify(body));
        }
        return;
      case 'csv':
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        writeBody(res, csvDocument(records()));
        return;
      case 'html':
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        writeBody(res, htmlDocument(title, records(), totalItems));
        return;
    }
  }
}

/**
 * Ends the response with a complete text body whose Content-Type is set. (Express's
 * res.send would re-parse that header and check freshness on every response; with no ETag
 * and no Last-Modified nothing here is ever fresh. Node drops the body of HEAD, 204, 304.)
 */
function writeBody(res: Response, body: string | Buffer): void {
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
