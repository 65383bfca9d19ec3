import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import type { UserTokenPurpose } from './user-tokens';

export interface NewUserToken {
  userId: string;
  purpose: UserTokenPurpose;
  tokenHash: string;
  /** A password chosen at sign-up, applied only when the code is used. */
  passwordHash: string | null;
  expiresAt: Date;
}

/**
 * The user_token table's SQL: e-mailed codes, stored as SHA-256. Statements go as prepared
 * statements on the caller's transaction.
 */
@Injectable()
export class UserTokenStore {
  async insert(db: SqlRunner, token: NewUserToken): Promise<void> {
    await execute(
      db,
      `INSERT INTO user_token (user_id, purpose, token_hash, password_hash, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [token.userId, token.purpose, token.tokenHash, token.passwordHash, token.expiresAt],
    );
  }

  /** Marks a live code used: its user and carried password, or undefined. */
  async spend(
    db: SqlRunner,
    tokenHash: string,
    purpose: UserTokenPurpose,
    now: Date,
  ): Promise<{ user_id: string; password_hash: string | null } | undefined> {
    const [row] = await query<{ user_id: string; password_hash: string | null }>(
      db,
      `UPDATE user_token SET used_at = $3
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
        RETURNING user_id, password_hash`,
      [tokenHash, purpose, now],
    );
    return row;
  }

  /** Every unused code of that kind of the user stops working. */
  async invalidate(
    db: SqlRunner,
    userId: string,
    purpose: UserTokenPurpose,
    now: Date,
  ): Promise<void> {
    await execute(
      db,
      `UPDATE user_token SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
      [userId, purpose, now],
    );
  }

  /** The password carried by the latest live verification code. */
  async pendingPassword(db: SqlRunner, userId: string, now: Date): Promise<string | null> {
    const row = await queryOne<{ password_hash: string | null }>(
      db,
      `SELECT password_hash FROM user_token
        WHERE user_id = $1 AND purpose = 'verify_email' AND used_at IS NULL AND expires_at > $2
        ORDER BY created_at DESC LIMIT 1`,
      [userId, now],
    );
    return row?.password_hash ?? null;
  }
}
