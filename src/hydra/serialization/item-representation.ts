import { httpDate } from '../../common/http/http-date';
import type { ApiRecord } from '../core/api-record';
import type { ResourceMeta } from '../core/resource-meta';
import { csvDocument } from './csv';
import { htmlDocument } from './html';
import { jsonLdItem, jsonLdItemText } from './jsonld';
import type { Format } from './negotiation';

/** An item as read: a record, or the JSON text PostgreSQL rendered (DataProvider.findJson). */
export type ItemSource =
  { record: ApiRecord } | { id: string; json: string; updatedAt?: Date | string | null };

/**
 * The exact bytes an item is answered with in a format: the one rendering the Responder
 * sends and the write pipeline's If-Match check hashes (README "API conventions"), so a tag
 * a client read is the tag the check computes. CSV and HTML come from the record only.
 */
export function itemBody(format: Format, resource: ResourceMeta, source: ItemSource): string {
  if ('json' in source) {
    if (format === 'jsonld') return jsonLdItemText(resource, source.id, source.json);
    if (format === 'json') return source.json;
    throw new Error(`an item's JSON text has no ${format} rendering`);
  }
  switch (format) {
    case 'jsonld':
      return JSON.stringify(jsonLdItem(resource, source.record));
    case 'json':
      return JSON.stringify(source.record);
    case 'csv':
      return csvDocument([source.record]);
    case 'html':
      return htmlDocument(resource.shortName, [source.record]);
  }
}

/**
 * `Last-Modified` of an item whose resource exposes `updatedAt` (an HTTP date): the record's,
 * or the column the JSON text's statement read beside it; undefined otherwise.
 */
export function lastModifiedOf(source: ItemSource): string | undefined {
  const value = 'json' in source ? source.updatedAt : source.record.updatedAt;
  const ms =
    value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? undefined : httpDate(ms);
}
