import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { joinUserSql, userEmailSql } from '../users/user-store';

export interface NewRefreshToken {
  tokenHash: string;
  familyId: string;
  clientId: string;
  userId: string;
  scope: string | null;
  expiresAt: Date;
  /** The refresh token this one replaced (null for a code's first). */
  replaces: string | null;
}

export interface NewAuthorizationCode {
  codeHash: string;
  clientId: string;
  userId: string;
  redirectUri: string | null;
  scope: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: Date;
}

/** What a grant (a code or a refresh token) carries, with its user's address. */
interface StoredGrant {
  client_id: string;
  user_id: string;
  email: string;
  family_id: string;
  scope: string | null;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

export interface StoredAuthorizationCode extends StoredGrant {
  redirect_uri: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
}

export interface StoredRefreshToken extends StoredGrant {
  id: string;
}

/**
 * The SQL of OAuth grants: authorization codes (oauth_authorization_code) and refresh tokens
 * (oauth_refresh_token), stored as SHA-256. Statements go as prepared statements on the
 * caller's transaction.
 */
@Injectable()
export class OAuthGrantStore {
  async insertCode(db: SqlRunner, code: NewAuthorizationCode): Promise<void> {
    await execute(
      db,
      `INSERT INTO oauth_authorization_code
         (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, code_challenge_method, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        code.codeHash,
        code.clientId,
        code.userId,
        code.redirectUri,
        code.scope,
        code.codeChallenge,
        code.codeChallengeMethod,
        code.expiresAt,
      ],
    );
  }

  async code(db: SqlRunner, codeHash: string): Promise<StoredAuthorizationCode | undefined> {
    return queryOne<StoredAuthorizationCode>(
      db,
      `SELECT c.client_id, c.user_id, ${userEmailSql('u')} AS email, c.family_id, c.scope, c.expires_at,
              c.used_at, c.revoked_at, c.redirect_uri, c.code_challenge, c.code_challenge_method
         FROM oauth_authorization_code c ${joinUserSql('u', 'c.user_id')}
        WHERE c.code_hash = $1`,
      [codeHash],
    );
  }

  /** Marks the code used; false when it was used or revoked already (a second use). */
  async spendCode(db: SqlRunner, codeHash: string, now: Date): Promise<boolean> {
    const rows = await query(
      db,
      `UPDATE oauth_authorization_code SET used_at = $2
        WHERE code_hash = $1 AND used_at IS NULL AND revoked_at IS NULL RETURNING id`,
      [codeHash, now],
    );
    return rows.length > 0;
  }

  /**
   * When the family's authorization code was revoked (null: it was not), sharing the lock
   * revokeFamily takes; undefined when the family has no code.
   */
  async familyRevokedAt(db: SqlRunner, familyId: string): Promise<Date | null | undefined> {
    const row = await queryOne<{ revoked_at: Date | null }>(
      db,
      `SELECT revoked_at FROM oauth_authorization_code WHERE family_id = $1 FOR SHARE`,
      [familyId],
    );
    return row ? row.revoked_at : undefined;
  }

  async insertRefreshToken(db: SqlRunner, token: NewRefreshToken): Promise<void> {
    await execute(
      db,
      `INSERT INTO oauth_refresh_token
              (token_hash, family_id, client_id, user_id, scope, expires_at, replaces)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        token.tokenHash,
        token.familyId,
        token.clientId,
        token.userId,
        token.scope,
        token.expiresAt,
        token.replaces,
      ],
    );
  }

  async refreshToken(db: SqlRunner, tokenHash: string): Promise<StoredRefreshToken | undefined> {
    return queryOne<StoredRefreshToken>(
      db,
      `SELECT r.id, r.client_id, r.user_id, ${userEmailSql('u')} AS email, r.family_id, r.scope,
              r.expires_at, r.used_at, r.revoked_at
         FROM oauth_refresh_token r ${joinUserSql('u', 'r.user_id')}
        WHERE r.token_hash = $1`,
      [tokenHash],
    );
  }

  /** Marks the refresh token used (rotation); false when it was used or revoked already. */
  async spendRefreshToken(db: SqlRunner, tokenHash: string, now: Date): Promise<boolean> {
    const rows = await query(
      db,
      `UPDATE oauth_refresh_token SET used_at = $2
        WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL RETURNING id`,
      [tokenHash, now],
    );
    return rows.length > 0;
  }

  /** Whether a token that replaced `tokenId` is unused and not revoked. */
  async hasLiveSuccessor(db: SqlRunner, tokenId: string): Promise<boolean> {
    const row = await queryOne(
      db,
      `SELECT 1 FROM oauth_refresh_token
        WHERE replaces = $1 AND used_at IS NULL AND revoked_at IS NULL`,
      [tokenId],
    );
    return row !== undefined;
  }

  /**
   * Marks used the unused token that replaced `tokenId`, if `tokenId` itself was used no
   * earlier than `usedSince` and is not revoked; false otherwise (and for the second of two
   * racing callers).
   */
  async spendSuccessor(
    db: SqlRunner,
    tokenId: string,
    usedSince: Date,
    now: Date,
  ): Promise<boolean> {
    const rows = await query(
      db,
      `UPDATE oauth_refresh_token c SET used_at = $3
         FROM oauth_refresh_token p
        WHERE p.id = $1 AND p.used_at >= $2 AND p.revoked_at IS NULL
          AND c.replaces = p.id AND c.used_at IS NULL AND c.revoked_at IS NULL
        RETURNING c.id`,
      [tokenId, usedSince, now],
    );
    return rows.length > 0;
  }

  /** Revokes the family's code (so it cannot grow) and its refresh tokens. */
  async revokeFamily(db: SqlRunner, familyId: string, now: Date): Promise<void> {
    await execute(
      db,
      `UPDATE oauth_authorization_code SET revoked_at = COALESCE(revoked_at, $2) WHERE family_id = $1`,
      [familyId, now],
    );
    await execute(
      db,
      `UPDATE oauth_refresh_token SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
      [familyId, now],
    );
  }

  /** Revokes every refresh token and unexchanged code of the user. */
  async revokeAllOf(db: SqlRunner, userId: string, now: Date): Promise<void> {
    await execute(
      db,
      `UPDATE oauth_refresh_token SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId, now],
    );
    await execute(
      db,
      `UPDATE oauth_authorization_code SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId, now],
    );
  }
}
