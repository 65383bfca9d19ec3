import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { VisibleMemory } from '../hydra/collection/visible-memory';
import type { StatusEntity } from './status.entity';

/** A workspace status as the rules about its use read it. */
export interface StatusRow {
  id: string;
  workspaceId: string;
  entity: StatusEntity;
}

interface StoredStatus {
  id: string;
  workspace_id: string;
  entity: StatusEntity;
}

const rowOf = (r: StoredStatus): StatusRow => ({
  id: r.id,
  workspaceId: r.workspace_id,
  entity: r.entity,
});

/**
 * The status table's SQL. `keyShare` locks the rows read FOR KEY SHARE: they cannot be
 * deleted before the caller's transaction ends (a batch assigning them).
 */
@Injectable()
export class StatusStore {
  /** The status (any tenant: callers check visibility first), or null. */
  async byId(runner: SqlRunner, id: string): Promise<StatusRow | null> {
    const row = await queryOne<StoredStatus>(
      runner,
      'SELECT id, workspace_id, entity FROM status WHERE id = $1',
      [id],
    );
    return row ? rowOf(row) : null;
  }

  /** The status if it is one of these workspaces', or null. */
  async inWorkspaces(
    runner: SqlRunner,
    id: string,
    workspaceIds: readonly string[],
    keyShare = false,
  ): Promise<StatusRow | null> {
    const row = await queryOne<StoredStatus>(
      runner,
      `SELECT id, workspace_id, entity FROM status WHERE id = $1 AND workspace_id = ANY($2::uuid[])${
        keyShare ? ' FOR KEY SHARE' : ''
      }`,
      [id, workspaceIds],
    );
    return row ? rowOf(row) : null;
  }

  /** The statuses of `entity` with this code in these workspaces (at most one each). */
  async byCode(
    runner: SqlRunner,
    workspaceIds: readonly string[],
    entity: StatusEntity,
    code: string,
    keyShare = false,
  ): Promise<StatusRow[]> {
    const rows = await query<StoredStatus>(
      runner,
      `SELECT id, workspace_id, entity FROM status
          WHERE workspace_id = ANY($1::uuid[]) AND entity = $2 AND code = $3 ORDER BY id${
            keyShare ? ' FOR KEY SHARE' : ''
          }`,
      [workspaceIds, entity, code],
    );
    return rows.map(rowOf);
  }

  /** Locks the statuses (in id order) so none is deleted before the transaction ends. */
  async lock(runner: SqlRunner, ids: readonly string[]): Promise<void> {
    await execute(
      runner,
      'SELECT id FROM status WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE',
      [ids],
    );
  }

  /**
   * The id of the workspace's status of `entity` with this code, created with the title when
   * there is none. ON CONFLICT makes concurrent first uses of a code agree on one row; an
   * existing status keeps its title. A transaction that remembers its references (an import's
   * share, whose orders mostly name one status) finds a code once, until it deletes something.
   */
  async findOrCreate(
    runner: SqlRunner,
    workspaceId: string,
    entity: StatusEntity,
    code: string,
    title: string | null,
  ): Promise<string> {
    const fact = `status.code/${workspaceId}/${entity}/${code}`;
    const known = VisibleMemory.recall(runner, fact);
    if (known !== undefined) return known;
    const id = await this.findOrInsert(runner, workspaceId, entity, code, title);
    VisibleMemory.note(runner, fact, id);
    return id;
  }

  private async findOrInsert(
    runner: SqlRunner,
    workspaceId: string,
    entity: StatusEntity,
    code: string,
    title: string | null,
  ): Promise<string> {
    const find = () =>
      queryOne<{ id: string }>(
        runner,
        'SELECT id FROM status WHERE workspace_id = $1 AND entity = $2 AND code = $3',
        [workspaceId, entity, code],
      );
    // Most writes name a status that exists: one statement. A new one is inserted, or, when a
    // concurrent write inserts it first, waited for (the unique index) and read once it commits.
    const found = await find();
    if (found) return found.id;
    await execute(
      runner,
      `INSERT INTO status (workspace_id, entity, code, title) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id, entity, code) DO NOTHING`,
      [workspaceId, entity, code, title],
    );
    return (await find())!.id;
  }
}
