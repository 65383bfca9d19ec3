import { NotFoundError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { identifierFrom, isUuid } from '../hydra/core/identifiers';
import { typeError } from '../hydra/write/denormalizer';
import { optionalString, stringList } from '../lookups/request-fields';
import { BATCH_ENTITIES, type BatchEntity } from './batch-entities';

/** Records one synchronous batch may name; the background form takes more. */
export const MAX_SYNC_BATCH = 1000;
export const MAX_ASYNC_BATCH = 10000;

export interface BatchRequest {
  entity: BatchEntity;
  /** Record ids, deduplicated in the given order. */
  ids: string[];
}

/** A status given by id or IRI (of /statuses), or by its code in each record's workspace. */
export type StatusSpec = { id: string } | { code: string };

/**
 * `entity` (one of `allowed`, named like the collection) and `ids` (ids or IRIs of that
 * collection, 1 to `max`). 400 for wrong types, 422 for a missing or unknown entity or a
 * list of the wrong size, 404 for a value that is no id of the collection (like a missing
 * record).
 */
export function batchRequest(
  body: Record<string, unknown>,
  allowed: string[],
  max: number,
): BatchRequest {
  const name = optionalString(body, 'entity')?.replace(/^\//, '');
  if (name === undefined) {
    throw ValidationError.of('entity', 'This value should not be blank.', ViolationCodes.notBlank);
  }
  if (!allowed.includes(name)) {
    throw ValidationError.of(
      'entity',
      `The value you selected is not a valid choice. Choose one of: ${allowed.join(', ')}.`,
      ViolationCodes.choice,
    );
  }
  const entity = BATCH_ENTITIES[name];
  if (body.ids === undefined || body.ids === null) {
    throw ValidationError.of('ids', 'This value should not be blank.', ViolationCodes.notBlank);
  }
  const values = stringList(body.ids, 'ids');
  if (values.length === 0) {
    throw ValidationError.of(
      'ids',
      'This collection should contain 1 element or more.',
      ViolationCodes.tooShort,
    );
  }
  if (values.length > max) {
    throw ValidationError.of(
      'ids',
      `This collection should contain ${max} elements or less.`,
      ViolationCodes.tooLong,
    );
  }
  const ids: string[] = [];
  for (const value of values) {
    const id = identifierFrom(value.trim());
    const iriOk =
      !value.includes('/') || value.trim() === `/${entity.name}/${value.split('/').pop()}`;
    if (!id || !iriOk) throw new NotFoundError();
    if (!ids.includes(id)) ids.push(id);
  }
  return { entity, ids };
}

/**
 * The status to assign: `statusId` (the reference's name: an id or a /statuses IRI) or
 * `status` (an IRI, an id, or the code of a status of the records' workspace).
 */
export function statusSpec(body: Record<string, unknown>): StatusSpec {
  const field = body.statusId !== undefined && body.statusId !== null ? 'statusId' : 'status';
  const raw = body[field];
  if (raw !== undefined && raw !== null && typeof raw !== 'string') {
    throw typeError(field, 'string', raw);
  }
  const value = optionalString(body, field);
  if (value === undefined) {
    throw ValidationError.of(
      'statusId',
      'This value should not be blank.',
      ViolationCodes.notBlank,
    );
  }
  if (value.startsWith('/')) {
    const segment = /^\/statuses\/([^/]+)$/.exec(value)?.[1];
    const id = segment ? identifierFrom(segment) : null;
    if (!id) {
      throw ValidationError.of(field, `Item not found for "${value}".`, ViolationCodes.invalid);
    }
    return { id };
  }
  if (isUuid(value)) return { id: value.toLowerCase() };
  if (field === 'statusId') {
    throw ValidationError.of(field, `Item not found for "${value}".`, ViolationCodes.invalid);
  }
  return { code: value };
}
