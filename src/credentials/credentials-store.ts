import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/** A credentials row as stored (secrets sealed). */
export interface StoredCredentialsRow {
  id: string;
  team_id: string;
  type: string;
  parameters: Record<string, unknown>;
  secrets_ciphertext: string | null;
}

/** A sealed value to re-seal (key rotation), by id. */
export interface SealedRow {
  id: string;
  sealed: string;
}

/** The credentials table's SQL: rows as stored, and the key rotation's walk of sealed secrets. */
@Injectable()
export class CredentialsStore {
  find(runner: SqlRunner, id: string): Promise<StoredCredentialsRow | undefined> {
    return queryOne<StoredCredentialsRow>(
      runner,
      'SELECT id, team_id, type, parameters, secrets_ciphertext FROM credentials WHERE id = $1',
      [id],
    );
  }

  /** Up to `limit` rows with sealed secrets after the id `after`, locked for the transaction. */
  sealedAfter(runner: SqlRunner, after: string, limit: number): Promise<SealedRow[]> {
    return query<SealedRow>(
      runner,
      `SELECT id, secrets_ciphertext AS sealed FROM credentials
        WHERE id > $1 AND secrets_ciphertext IS NOT NULL
        ORDER BY id LIMIT $2 FOR UPDATE`,
      [after, limit],
    );
  }

  async reseal(runner: SqlRunner, id: string, sealed: string): Promise<void> {
    await query(runner, 'UPDATE credentials SET secrets_ciphertext = $2 WHERE id = $1', [
      id,
      sealed,
    ]);
  }
}
