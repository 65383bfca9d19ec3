import type { EntityManager } from 'typeorm';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { StatusEntity } from './status.entity';
import { StatusStore, type StatusRow } from './status-store';

/**
 * What a kind of record that carries a workspace status (shipments, orders) answers about
 * it, from its owner's store: the statuses module counts and moves the records without
 * naming their tables.
 */
export interface StatusHolderStore {
  /** How many records of the workspace have the status. */
  countWithStatus(em: EntityManager, statusId: string, workspaceId: string): Promise<number>;
  /** Gives the records of the workspace with status `fromId` the status `toId`; answers how many. */
  moveStatus(em: EntityManager, fromId: string, toId: string, workspaceId: string): Promise<number>;
}

/** An embedded `{code, title}` status as a write gives it, checked. */
export interface StatusCodeInput {
  code: string;
  title: string | null;
}

/**
 * The code and title of an embedded `{code, title}` object (`shipmentStatus`, `orderStatus`):
 * strings, a code not blank and at most 255 characters, both trimmed; a blank title is none,
 * a long one is cut. Violations are reported under `path`.
 */
export function statusCodeInput(input: Record<string, unknown>, path: string): StatusCodeInput {
  const { code, title } = input;
  if (code !== undefined && code !== null && typeof code !== 'string') {
    throw ValidationError.of(
      `${path}.code`,
      'This value should be of type string.',
      ViolationCodes.invalid,
    );
  }
  if (title !== undefined && title !== null && typeof title !== 'string') {
    throw ValidationError.of(
      `${path}.title`,
      'This value should be of type string.',
      ViolationCodes.invalid,
    );
  }
  const trimmed = typeof code === 'string' ? code.trim() : '';
  if (!trimmed) {
    throw ValidationError.of(
      `${path}.code`,
      'This value should not be blank.',
      ViolationCodes.notBlank,
    );
  }
  if ([...trimmed].length > 255) {
    throw ValidationError.of(
      `${path}.code`,
      'This value is too long. It should have 255 characters or less.',
      ViolationCodes.tooLong,
    );
  }
  const cleanTitle = typeof title === 'string' && title.trim() ? title.trim().slice(0, 255) : null;
  return { code: trimmed, title: cleanTitle };
}

/** A status given by IRI must belong to the record's workspace and entity: 422 otherwise. */
export function assertStatusOf(
  status: StatusRow | null,
  workspaceId: string,
  entity: StatusEntity,
  path: string,
): void {
  if (!status || status.workspaceId !== workspaceId || status.entity !== entity) {
    throw ValidationError.of(
      path,
      `The status must be a status of ${entity} of the same workspace.`,
      ViolationCodes.invalid,
    );
  }
}

/** The store of the two functions below, which callers use without injection. */
const statuses = new StatusStore();

/**
 * The status an embedded `{code, title}` object names: the workspace's status of that entity
 * with that code, created (with the title) when the workspace has none yet. An existing
 * status keeps its title: statuses are defined once per workspace and edited through
 * /statuses. Violations are reported under `path`.
 */
export async function findOrCreateStatus(
  em: EntityManager,
  workspaceId: string,
  entity: StatusEntity,
  input: Record<string, unknown>,
  path: string,
  store: StatusStore = statuses,
): Promise<string> {
  const { code, title } = statusCodeInput(input, path);
  return store.findOrCreate(em, workspaceId, entity, code, title);
}

/** A status given by IRI must belong to the record's workspace and entity. */
export async function checkStatusReference(
  em: EntityManager,
  statusId: string,
  workspaceId: string,
  entity: StatusEntity,
  path: string,
  store: StatusStore = statuses,
): Promise<void> {
  assertStatusOf(await store.byId(em, statusId), workspaceId, entity, path);
}
