import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';

/** The team table's SQL. Statements go as prepared statements on the caller's transaction. */
@Injectable()
export class TeamStore {
  async name(db: SqlRunner, id: string): Promise<string | undefined> {
    return (await queryOne<{ name: string }>(db, `SELECT name FROM team WHERE id = $1`, [id]))
      ?.name;
  }

  /** A new team; answers its id. */
  async create(db: SqlRunner, name: string): Promise<string> {
    const [row] = await query<{ id: string }>(
      db,
      `INSERT INTO team (name) VALUES ($1) RETURNING id`,
      [name],
    );
    return row.id;
  }

  /** Deletes the team with everything in it (foreign-key cascades). */
  async delete(db: SqlRunner, id: string): Promise<void> {
    await execute(db, `DELETE FROM team WHERE id = $1`, [id]);
  }
}
