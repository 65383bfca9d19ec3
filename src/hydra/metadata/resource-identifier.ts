import { isUuid } from '../filters/filter';

/** What identifier checks need to know about a resource. */
export interface IdentifierShape {
  /** True when the identifier column is a uuid (the common case). */
  idIsUuid: boolean;
}

const MAX_CODE_LENGTH = 255;

/**
 * The identifier of an item as stored, from a route segment or the last segment of an IRI,
 * or null when it cannot identify a record of the resource (answered 404, never an SQL error).
 * uuid resources accept UUIDs only (lower-cased); resources identified by a text code (carriers,
 * tracking statuses) accept any non-empty segment without a slash, compared as is.
 */
export function itemIdentifier(resource: IdentifierShape, raw: string): string | null {
  if (resource.idIsUuid) return isUuid(raw) ? raw.toLowerCase() : null;
  return raw.length > 0 && raw.length <= MAX_CODE_LENGTH && !raw.includes('/') ? raw : null;
}

/** SQL cast for a parameter compared with the identifier column. */
export function identifierCast(resource: IdentifierShape): string {
  return resource.idIsUuid ? '::uuid' : '';
}
