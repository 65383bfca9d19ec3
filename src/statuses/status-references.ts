import type { EntityManager } from 'typeorm';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import type { StatusEntity } from './status.entity';

/** Where each kind of record keeps its workspace status. */
export const STATUS_REFERENCES: Record<StatusEntity, { table: string; column: string }> = {
  shipments: { table: 'shipment', column: 'shipment_status_id' },
  orders: { table: '"order"', column: 'order_status_id' },
};

export interface StatusRow {
  id: string;
  workspaceId: string;
  entity: StatusEntity;
}

/** The status row (any tenant: callers check visibility first), or null. */
export async function loadStatus(em: EntityManager, id: string): Promise<StatusRow | null> {
  const rows: Array<{ id: string; workspace_id: string; entity: StatusEntity }> = await em.query(
    'SELECT id, workspace_id, entity FROM status WHERE id = $1',
    [id],
  );
  return rows.length
    ? { id: rows[0].id, workspaceId: rows[0].workspace_id, entity: rows[0].entity }
    : null;
}

/** How many records use the status. */
export async function countStatusReferences(em: EntityManager, status: StatusRow): Promise<number> {
  const ref = STATUS_REFERENCES[status.entity];
  const rows: Array<{ n: number }> = await em.query(
    `SELECT count(*)::int AS n FROM ${ref.table} WHERE ${ref.column} = $1 AND workspace_id = $2`,
    [status.id, status.workspaceId],
  );
  return rows[0].n;
}

/** Moves every record from one status to another of the same workspace and entity. */
export async function migrateStatusReferences(
  em: EntityManager,
  from: StatusRow,
  to: StatusRow,
): Promise<number> {
  const ref = STATUS_REFERENCES[from.entity];
  const [, affected] = (await em.query(
    `UPDATE ${ref.table} SET ${ref.column} = $1, updated_at = now() WHERE ${ref.column} = $2 AND workspace_id = $3`,
    [to.id, from.id, from.workspaceId],
  )) as [unknown, number];
  return affected;
}

/**
 * The status an embedded `{code, title}` object names, for `shipmentStatus`
 * and `orderStatus`: the workspace's status of that entity with that code,
 * created (with the title) when the workspace has none yet. An existing
 * status keeps its title: statuses are defined once per workspace and
 * edited through /statuses. Violations are reported under `path`.
 */
export async function findOrCreateStatus(
  em: EntityManager,
  workspaceId: string,
  entity: StatusEntity,
  input: Record<string, unknown>,
  path: string,
): Promise<string> {
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
  // ON CONFLICT makes concurrent first uses of a code agree on one row.
  await em.query(
    `INSERT INTO status (workspace_id, entity, code, title) VALUES ($1, $2, $3, $4)
     ON CONFLICT (workspace_id, entity, code) DO NOTHING`,
    [workspaceId, entity, trimmed, cleanTitle],
  );
  const rows: Array<{ id: string }> = await em.query(
    'SELECT id FROM status WHERE workspace_id = $1 AND entity = $2 AND code = $3',
    [workspaceId, entity, trimmed],
  );
  return rows[0].id;
}

/** A status given by IRI must belong to the record's workspace and entity. */
export async function checkStatusReference(
  em: EntityManager,
  statusId: string,
  workspaceId: string,
  entity: StatusEntity,
  path: string,
): Promise<void> {
  const status = await loadStatus(em, statusId);
  if (!status || status.workspaceId !== workspaceId || status.entity !== entity) {
    throw ValidationError.of(
      path,
      `The status must be a status of ${entity} of the same workspace.`,
      ViolationCodes.invalid,
    );
  }
}
