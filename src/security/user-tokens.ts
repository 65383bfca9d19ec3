import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { hashToken, randomSecret } from '../auth/secret-token';

export type UserTokenPurpose = 'verify_email' | 'reset_password';

/** Lifetimes of e-mailed codes. */
export const USER_TOKEN_LIFETIME: Record<UserTokenPurpose, number> = {
  verify_email: 48 * 3600,
  reset_password: 3600,
};

/**
 * Single-use, expiring codes sent by e-mail (verification, password reset), stored as
 * SHA-256. A verification code may carry the password chosen at sign-up: it is applied
 * only when that code is used, so nobody can set the password of an address they do not
 * control.
 */
@Injectable()
export class UserTokens {
  constructor(private readonly clock: Clock) {}

  async issue(
    em: EntityManager,
    userId: string,
    purpose: UserTokenPurpose,
    passwordHash: string | null = null,
  ): Promise<string> {
    const code = randomSecret();
    await em.query(
      `INSERT INTO user_token (user_id, purpose, token_hash, password_hash, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [userId, purpose, hashToken(code), passwordHash, this.clock.in(USER_TOKEN_LIFETIME[purpose])],
    );
    return code;
  }

  /** Spends a valid code: its user and carried password; every other code of that kind dies. */
  async consume(
    em: EntityManager,
    code: string,
    purpose: UserTokenPurpose,
  ): Promise<{ userId: string; passwordHash: string | null } | null> {
    const now = this.clock.now();
    const rows = await em.query(
      `UPDATE user_token SET used_at = $3
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
        RETURNING user_id, password_hash`,
      [hashToken(code), purpose, now],
    );
    const row = (Array.isArray(rows[0]) ? rows[0] : rows)[0];
    if (!row) return null;
    await this.invalidate(em, row.user_id, purpose);
    return { userId: row.user_id, passwordHash: row.password_hash };
  }

  async invalidate(em: EntityManager, userId: string, purpose: UserTokenPurpose): Promise<void> {
    await em.query(
      `UPDATE user_token SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
      [userId, purpose, this.clock.now()],
    );
  }

  /** The password carried by the latest live verification code (kept when resending). */
  async pendingPassword(em: EntityManager, userId: string): Promise<string | null> {
    const [row] = await em.query(
      `SELECT password_hash FROM user_token
        WHERE user_id = $1 AND purpose = 'verify_email' AND used_at IS NULL AND expires_at > $2
        ORDER BY created_at DESC LIMIT 1`,
      [userId, this.clock.now()],
    );
    return row?.password_hash ?? null;
  }
}
