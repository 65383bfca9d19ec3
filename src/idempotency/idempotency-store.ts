import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { retentionStatements } from '../retention/retention-rule';

export interface IdempotencyScope {
  caller: string;
  method: string;
  path: string;
  key: string;
}

export interface StoredAnswer {
  id: string;
  fingerprint: string;
  /** null: the first request is still running. */
  status: number | null;
  headers: Record<string, string> | null;
  /** The body sealed with the credentials key (CredentialsCipher). */
  sealed_body: string | null;
}

/**
 * Rows are swept once expired (RETENTION_DAYS_TOKENS only decides whether the sweep runs:
 * a key lives IDEMPOTENCY_KEY_HOURS, not days). An expired row is also taken over by a new
 * request with its key.
 */
export const IDEMPOTENCY_RETENTION = retentionStatements({
  table: 'idempotency_key',
  category: 'tokens',
  where: 'x.expires_at <= now() AND $1::timestamptz IS NOT NULL',
});

/**
 * The idempotency_key table's SQL: a request claims its key (a unique row per caller, method,
 * path and key: of two concurrent requests exactly one inserts it), then stores its answer or
 * gives the key back.
 */
@Injectable()
export class IdempotencyStore {
  /**
   * Claims the key for a new request: inserts its row, or takes over an expired one or one a
   * request left running longer than `staleSeconds` (a node that died). Answers the row's id,
   * or null when the key is held.
   */
  async claim(
    runner: SqlRunner,
    scope: IdempotencyScope,
    fingerprint: string,
    hours: number,
    staleSeconds: number,
  ): Promise<string | null> {
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO idempotency_key AS k
              (caller, method, path, idempotency_key, fingerprint, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(hours => $6::int))
       ON CONFLICT (caller, method, path, idempotency_key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, status = NULL, headers = NULL, sealed_body = NULL,
              created_at = now(), expires_at = EXCLUDED.expires_at
        WHERE k.expires_at <= now()
           OR (k.status IS NULL AND k.created_at < now() - make_interval(secs => $7::int))
       RETURNING k.id`,
      [scope.caller, scope.method, scope.path, scope.key, fingerprint, hours, staleSeconds],
    );
    return row?.id ?? null;
  }

  /** The live row of a key, or null (gone meanwhile: claim again). */
  async find(runner: SqlRunner, scope: IdempotencyScope): Promise<StoredAnswer | null> {
    const rows = await query<StoredAnswer>(
      runner,
      `SELECT id, fingerprint, status, headers, sealed_body FROM idempotency_key
        WHERE caller = $1 AND method = $2 AND path = $3 AND idempotency_key = $4
          AND expires_at > now()`,
      [scope.caller, scope.method, scope.path, scope.key],
    );
    return rows[0] ?? null;
  }

  async complete(
    runner: SqlRunner,
    id: string,
    answer: { status: number; headers: Record<string, string>; sealedBody: string | null },
  ): Promise<void> {
    await execute(
      runner,
      `UPDATE idempotency_key SET status = $2, headers = $3::jsonb, sealed_body = $4 WHERE id = $1`,
      [id, answer.status, JSON.stringify(answer.headers), answer.sealedBody],
    );
  }

  /** Gives the key back (a server error, an answer too big to keep, a client gone). */
  async release(runner: SqlRunner, id: string): Promise<void> {
    await execute(runner, `DELETE FROM idempotency_key WHERE id = $1`, [id]);
  }
}
