import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '../database/query';
import { UserStore } from '../users/user-store';
import { AccessTokenStore } from './access-token-store';
import { Clock } from '../common/clock';
import { OAuthGrantStore } from './oauth-grant-store';
import { USER_SCOPE } from './oauth-model';
import { hashToken, randomSecret } from './secret-token';

export const ACCESS_TOKEN_LIFETIME = 3600;
export const REFRESH_TOKEN_LIFETIME = 14 * 24 * 3600;
/**
 * Seconds a rotated refresh token may be presented again while the token that replaced it is
 * unused: the client lost the answer (a dropped connection, a closed tab) and retries. Okta's
 * default grace period, Auth0's reuse interval; past it, or once the successor was used, the
 * old token coming back revokes its family.
 */
export const REFRESH_TOKEN_REUSE_INTERVAL = 30;

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
    private readonly accessTokens: AccessTokenStore,
    private readonly grants: OAuthGrantStore,
    private readonly users: UserStore,
  ) {}

  async issue(
    user: { id: string; email: string },
    db: SqlRunner = this.dataSource,
  ): Promise<TokenResponse> {
    const token = randomSecret();
    await this.accessTokens.insert(db, {
      tokenHash: hashToken(token),
      userId: user.id,
      clientId: null,
      scope: USER_SCOPE,
      expiresAt: this.clock.in(ACCESS_TOKEN_LIFETIME),
      familyId: null,
    });
    await this.users.recordLogin(db, user.id, this.clock.now());
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

  /**
   * Every live token of a user stops working (password reset or change, first proof of the
   * address): access tokens but `keepTokenId` (the session that changed the password), refresh
   * tokens, and authorization codes not exchanged yet. A revoked code also closes its family:
   * no refresh grant can add to it (OAuthModel.saveToken).
   */
  async revokeAllFor(
    userId: string,
    db: SqlRunner = this.dataSource,
    keepTokenId: string | null = null,
  ): Promise<void> {
    const now = this.clock.now();
    await this.accessTokens.revokeAllOf(db, userId, now, keepTokenId);
    await this.grants.revokeAllOf(db, userId, now);
  }
}
