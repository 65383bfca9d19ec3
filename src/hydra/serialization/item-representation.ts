import type { ApiRecord } from '../core/api-record';
import type { ResourceMeta } from '../core/resource-meta';
import { csvDocument } from './csv';
import { htmlDocument } from './html';
import { jsonLdItem, jsonLdItemText } from './jsonld';
import type { Format } from './negotiation';

/** An item as read: a record, or the JSON text PostgreSQL rendered (DataProvider.findJson). */
export type ItemSource = { record: ApiRecord } | { id: string; json: string };

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
 * `Last-Modified` of an item whose resource exposes `updatedAt` (an HTTP date), read from
 * the record or from the top level of its JSON text; undefined otherwise.
 */
export function lastModifiedOf(source: ItemSource): string | undefined {
  const value =
    'json' in source ? topLevelString(source.json, 'updatedAt') : source.record.updatedAt;
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toUTCString();
}

/**
 * The string value of `key` among the top-level members of a JSON object's text (nested
 * objects skipped), without parsing the whole text; undefined when absent or not a string.
 */
export function topLevelString(json: string, key: string): string | undefined {
  const needle = `"${key}"`;
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      const start = i;
      for (i++; i < json.length && json[i] !== '"'; i++) if (json[i] === '\\') i++;
      if (depth !== 1 || json.slice(start, i + 1) !== needle) continue;
      let j = i + 1;
      while (json[j] === ' ' || json[j] === ':') j++;
      if (json[j] !== '"') return undefined;
      const end = json.indexOf('"', j + 1);
      const raw = json.slice(j + 1, end);
      return raw.includes('\\') ? undefined : raw;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}
