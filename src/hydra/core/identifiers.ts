/**
 * Identifiers and IRIs: what a route segment, an IRI or a filter value names, checked before
 * it reaches SQL (a malformed one is a 404 or matches nothing, never an SQL error).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Accepts an IRI (`/workspaces/<uuid>`) or a raw id; null when neither is a UUID. */
export function identifierFrom(value: string): string | null {
  const id = value.includes('/') ? value.slice(value.lastIndexOf('/') + 1) : value;
  return UUID.test(id) ? id.toLowerCase() : null;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Whether PostgreSQL text can hold the string: anything but U+0000 (NUL). No stored text
 * equals a value with a NUL, and binding one fails the whole statement (22021), so filters
 * let such values match nothing instead of sending them.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000');
}

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
 * tracking statuses, time zones) accept any non-empty code PostgreSQL text can hold (no NUL),
 * compared as is. A code may hold a slash (`Europe/Berlin`): its IRI carries it percent-encoded
 * (iriSegment), as Symfony's router does, and route parameters arrive decoded.
 */
export function itemIdentifier(resource: IdentifierShape, raw: string): string | null {
  if (resource.idIsUuid) return isUuid(raw) ? raw.toLowerCase() : null;
  return raw.length > 0 && raw.length <= MAX_CODE_LENGTH && isStorableText(raw) ? raw : null;
}

/** The identifier as the last segment of an IRI: codes percent-encoded, UUIDs as they are. */
export function iriSegment(resource: IdentifierShape, id: unknown): string {
  return resource.idIsUuid ? String(id) : encodeURIComponent(String(id));
}

/** The identifier in the last segment of an IRI (decoded for codes); null when malformed. */
export function identifierFromSegment(resource: IdentifierShape, segment: string): string | null {
  if (resource.idIsUuid) return itemIdentifier(resource, segment);
  try {
    return itemIdentifier(resource, decodeURIComponent(segment));
  } catch {
    return null;
  }
}

/** SQL cast for a parameter compared with the identifier column. */
export function identifierCast(resource: IdentifierShape): string {
  return resource.idIsUuid ? '::uuid' : '';
}
