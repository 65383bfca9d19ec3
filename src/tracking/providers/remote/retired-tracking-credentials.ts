import { query, type SqlRunner } from '../../../database/query';

/** What stopping at a retired account needs: the credentials as they were. */
export interface RetiredCredentialsRow {
  id: string;
  team_id: string | null;
  type: string;
  parameters: Record<string, unknown>;
  secrets_ciphertext: string | null;
  created_at: Date;
}

/**
 * The SQL of retired_tracking_credentials: credentials deleted, or moved to another provider
 * or account, kept (secrets still sealed) under a new id only while stops queued at that id
 * remain, so that those numbers can still be stopped at the old account.
 */
export const retiredTrackingCredentials = {
  /** Keeps a copy of credentials as they were; answers its new id (the stops' key). */
  async retire(
    runner: SqlRunner,
    old: {
      id: string;
      teamId: string | null;
      type: string;
      parameters: Record<string, unknown>;
      secretsCiphertext: string | null;
    },
  ): Promise<string> {
    const result = await query<{ id: string }>(
      runner,
      `INSERT INTO retired_tracking_credentials (id, team_id, type, parameters,
              secrets_ciphertext, retired_from)
       VALUES (gen_random_uuid(), $1, $2, $3::jsonb, $4, $5)
       RETURNING id`,
      [old.teamId, old.type, JSON.stringify(old.parameters ?? {}), old.secretsCiphertext, old.id],
    );
    return result[0].id;
  },

  async find(runner: SqlRunner, id: string): Promise<RetiredCredentialsRow | null> {
    const rows = await query<RetiredCredentialsRow>(
      runner,
      `SELECT id, team_id, type, parameters, secrets_ciphertext, retired_at AS created_at
         FROM retired_tracking_credentials WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  },

  /**
   * Forgets retired credentials no queued stop needs any more (all stopped or given up): their
   * secrets are kept no longer than their stops' last attempt.
   */
  async sweep(runner: SqlRunner): Promise<void> {
    await runner.query(
      `DELETE FROM retired_tracking_credentials r
        WHERE NOT EXISTS (SELECT 1 FROM remote_tracking_stop q WHERE q.credentials_key = r.id::text)`,
    );
  },

  /**
   * Key rotation (src/credentials/credentials-key-rotation.ts): up to `limit` copies with
   * sealed secrets after the id `after`, locked for the transaction.
   */
  async sealedAfter(
    runner: SqlRunner,
    after: string,
    limit: number,
  ): Promise<Array<{ id: string; sealed: string }>> {
    return query<{ id: string; sealed: string }>(
      runner,
      `SELECT id, secrets_ciphertext AS sealed FROM retired_tracking_credentials
        WHERE id > $1 AND secrets_ciphertext IS NOT NULL
        ORDER BY id LIMIT $2 FOR UPDATE`,
      [after, limit],
    );
  },

  async reseal(runner: SqlRunner, id: string, sealed: string): Promise<void> {
    await query(
      runner,
      'UPDATE retired_tracking_credentials SET secrets_ciphertext = $2 WHERE id = $1',
      [id, sealed],
    );
  },
};
