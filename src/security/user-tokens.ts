import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../database/query';
import { Clock } from '../common/clock';
import { hashToken, randomSecret } from '../auth/secret-token';
import { UserTokenStore } from './user-token-store';

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
  constructor(
    private readonly clock: Clock,
    private readonly store: UserTokenStore,
  ) {}

  async issue(
    db: SqlRunner,
    userId: string,
    purpose: UserTokenPurpose,
    passwordHash: string | null = null,
  ): Promise<string> {
    const code = randomSecret();
    await this.store.insert(db, {
      userId,
      purpose,
      tokenHash: hashToken(code),
      passwordHash,
      expiresAt: this.clock.in(USER_TOKEN_LIFETIME[purpose]),
    });
    return code;
  }

  /** Spends a valid code: its user and carried password; every other code of that kind dies. */
  async consume(
    db: SqlRunner,
    code: string,
    purpose: UserTokenPurpose,
  ): Promise<{ userId: string; passwordHash: string | null } | null> {
    const row = await this.store.spend(db, hashToken(code), purpose, this.clock.now());
    if (!row) return null;
    await this.invalidate(db, row.user_id, purpose);
    return { userId: row.user_id, passwordHash: row.password_hash };
  }

  async invalidate(db: SqlRunner, userId: string, purpose: UserTokenPurpose): Promise<void> {
    await this.store.invalidate(db, userId, purpose, this.clock.now());
  }

  /** The password carried by the latest live verification code (kept when resending). */
  async pendingPassword(db: SqlRunner, userId: string): Promise<string | null> {
    return this.store.pendingPassword(db, userId, this.clock.now());
  }
}
