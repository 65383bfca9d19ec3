import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { USER_SCOPE } from './oauth-model';
import { hashToken, randomSecret } from './secret-token';

export const ACCESS_TOKEN_LIFETIME = 3600;
export const REFRESH_TOKEN_LIFETIME = 14 * 24 * 3600;

/** The token object of the API's answers (OAuth fields plus the user it acts as). */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'bearer';
  scope: string | null;
  refresh_token?: string | null;
  user_id: string;
  user_email: string;
}

/**
 * First-party access tokens (no OAuth client), e.g. right after e-mail verification so a
 * new user can start at once. Stored as SHA-256 like every other token.
 */
@Injectable()
export class TokenIssuer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async issue(
    user: { id: string; email: string },
    em: EntityManager = this.dataSource.manager,
  ): Promise<TokenResponse> {
    const token = randomSecret();
    await em.query(
      `INSERT INTO access_token (token_hash, user_id, scope, expires_at) VALUES ($1, $2, $3, $4)`,
      [hashToken(token), user.id, USER_SCOPE, this.clock.in(ACCESS_TOKEN_LIFETIME)],
    );
    await em.query(`UPDATE "user" SET last_logged_in_at = $2 WHERE id = $1`, [
      user.id,
      this.clock.now(),
    ]);
    return {
      access_token: token,
      expires_in: ACCESS_TOKEN_LIFETIME,
      token_type: 'bearer',
      scope: USER_SCOPE,
      refresh_token: null,
      user_id: user.id,
      user_email: user.email,
    };
  }

  /** Every live token of a user stops working (password reset). */
  async revokeAllFor(userId: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    const now = this.clock.now();
    await em.query(
      `UPDATE access_token SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2`,
      [userId, now],
    );
    await em.query(
      `UPDATE oauth_refresh_token SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId, now],
    );
  }
}
