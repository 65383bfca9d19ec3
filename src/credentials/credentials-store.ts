import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/** A credentials row as stored (secrets sealed). */
export interface StoredCredentialsRow {
  id: string;
  team_id: string;
  type: string;
  parameters: Record<string, unknown>;
  secrets_ciphertext: string | null;
  rejected_at: Date | null;
}

/** A credentials row with its creation time (the order a team's credentials are tried in). */
export interface DatedCredentialsRow extends StoredCredentialsRow {
  created_at: Date;
}

const DATED_COLUMNS = 'id, team_id, type, parameters, secrets_ciphertext, rejected_at, created_at';

/** A sealed value to re-seal (key rotation), by id. */
export interface SealedRow {
  id: string;
  sealed: string;
}

/** The credentials table's SQL: rows as stored, and the key rotation's walk of sealed secrets. */
@Injectable()
export class CredentialsStore {
  /** The row; locked for the transaction with `lock`. */
  find(runner: SqlRunner, id: string, lock = false): Promise<StoredCredentialsRow | undefined> {
    return queryOne<StoredCredentialsRow>(
      runner,
      `SELECT id, team_id, type, parameters, secrets_ciphertext, rejected_at FROM credentials
        WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
  }

  /** The credentials of these teams of these types. */
  ofTeams(
    runner: SqlRunner,
    teamIds: readonly string[],
    types: readonly string[],
  ): Promise<DatedCredentialsRow[]> {
    return query<DatedCredentialsRow>(
      runner,
      `SELECT ${DATED_COLUMNS} FROM credentials WHERE team_id = ANY($1::uuid[]) AND type = ANY($2::text[])`,
      [teamIds, types],
    );
  }

  /** The row when it is of one of these types. */
  findOfTypes(
    runner: SqlRunner,
    id: string,
    types: readonly string[],
  ): Promise<DatedCredentialsRow | undefined> {
    return queryOne<DatedCredentialsRow>(
      runner,
      `SELECT ${DATED_COLUMNS} FROM credentials WHERE id = $1 AND type = ANY($2::text[])`,
      [id, types],
    );
  }

  /**
   * Marks the row refused with the reason; answers its team and type when it was not already
   * (undefined otherwise, or when there is no such row).
   */
  rejectOnce(
    runner: SqlRunner,
    id: string,
    reason: string,
  ): Promise<{ team_id: string; type: string } | undefined> {
    return queryOne<{ team_id: string; type: string }>(
      runner,
      `UPDATE credentials SET rejected_at = now(), rejection_reason = $2
        WHERE id = $1 AND rejected_at IS NULL RETURNING team_id, type`,
      [id, reason],
    );
  }

  /** Marks the row refused; true when it was not already. */
  async markRejected(runner: SqlRunner, id: string, reason: string): Promise<boolean> {
    const rows = await query<{ id: string }>(
      runner,
      `UPDATE credentials SET rejected_at = now(), rejection_reason = $2
        WHERE id = $1 AND rejected_at IS NULL RETURNING id`,
      [id, reason],
    );
    return rows.length > 0;
  }

  /** New sealed secrets and their masked hints (a secret generated for the record). */
  async replaceSecrets(
    runner: SqlRunner,
    id: string,
    sealed: string | null,
    hints: Record<string, string>,
  ): Promise<void> {
    await query(
      runner,
      `UPDATE credentials SET secrets_ciphertext = $2, secret_hints = $3::jsonb, updated_at = now()
        WHERE id = $1`,
      [id, sealed, JSON.stringify(hints)],
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
