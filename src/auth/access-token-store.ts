import { Injectable } from '@nestjs/common';
import { execute, queryOne, type SqlRunner } from '../database/query';
import { joinUserSql, userEmailSql } from '../users/user-store';

export interface NewAccessToken {
  tokenHash: string;
  userId: string;
  /** The OAuth client it was issued to (null: a first-party session). */
  clientId: string | null;
  scope: string | null;
  expiresAt: Date;
  /** The grant it came from (authorization code, refresh tokens): revoked together. */
  familyId: string | null;
}

/** A token that is not revoked, with its user's address. */
export interface StoredAccessToken {
  user_id: string;
  email: string;
  client_id: string | null;
  scope: string | null;
  expires_at: Date;
}

/**
 * The access_token table's SQL (tokens are stored as SHA-256). The per-request look-up of a
 * token is PrincipalStore's. Statements go as prepared statements on the caller's transaction.
 */
@Injectable()
export class AccessTokenStore {
  async insert(db: SqlRunner, token: NewAccessToken): Promise<void> {
    await execute(
      db,
      `INSERT INTO access_token (token_hash, user_id, client_id, scope, expires_at, family_id)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [token.tokenHash, token.userId, token.clientId, token.scope, token.expiresAt, token.familyId],
    );
  }

  /** The token when it is not revoked (expired or not). */
  async live(db: SqlRunner, tokenHash: string): Promise<StoredAccessToken | undefined> {
    return queryOne<StoredAccessToken>(
      db,
      `SELECT t.user_id, ${userEmailSql('u')} AS email, t.client_id, t.scope, t.expires_at
         FROM access_token t ${joinUserSql('u', 't.user_id')}
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      [tokenHash],
    );
  }

  /** Revokes every unexpired token of the user but `keepTokenId`. */
  async revokeAllOf(
    db: SqlRunner,
    userId: string,
    now: Date,
    keepTokenId: string | null,
  ): Promise<void> {
    await execute(
      db,
      `UPDATE access_token SET revoked_at = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
          AND id IS DISTINCT FROM $3::uuid`,
      [userId, now, keepTokenId],
    );
  }

  async revokeFamily(db: SqlRunner, familyId: string, now: Date): Promise<void> {
    await execute(
      db,
      `UPDATE access_token SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
      [familyId, now],
    );
  }
}
