import { Injectable } from '@nestjs/common';
import { InvalidGrantError } from '@node-oauth/oauth2-server';
import type {
  AuthorizationCode,
  AuthorizationCodeModel,
  Client,
  ClientCredentialsModel,
  Falsey,
  RefreshToken,
  RefreshTokenModel,
  Token,
  User,
} from '@node-oauth/oauth2-server';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { hashToken } from './secret-token';

/** The only scope there is: the token acts as its user. */
export const USER_SCOPE = 'user';
export const AUTHORIZATION_CODE_LIFETIME = 600;

/** What travels with `user` through the library: the family tokens are issued into. */
export interface OAuthUser extends User {
  id: string;
  email: string;
  familyId?: string;
}

export interface OAuthClient extends Client {
  id: string;
  userId: string;
}

/**
 * The @node-oauth/oauth2-server model on our tables. Codes and tokens are stored as
 * SHA-256. Tokens from one authorization code form a family (access and refresh tokens,
 * and their rotations); a reused code or refresh token revokes the whole family, and a
 * revoked family cannot grow. Expiry follows the injected Clock: the library compares
 * with the real time, so dates are translated between the two at the boundary.
 */
@Injectable()
export class OAuthModel
  implements AuthorizationCodeModel, ClientCredentialsModel, RefreshTokenModel
{
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async getClient(clientId: string, clientSecret: string | null): Promise<OAuthClient | Falsey> {
    const [row] = await this.dataSource.query(
      `SELECT id, user_id, redirect_uris, grants, secret_hash FROM oauth_client WHERE public_id = $1`,
      [clientId],
    );
    if (!row) return null;
    // No secret: the authorization page, or a PKCE exchange (the library allows no other case).
    if (clientSecret != null && !sameHash(hashToken(clientSecret), row.secret_hash)) return null;
    return { id: row.id, userId: row.user_id, redirectUris: row.redirect_uris, grants: row.grants };
  }

  /**
   * Client credentials act as the client's owner, who must have proven their address: an
   * unverified account may belong to someone else's address (a storefront registration).
   */
  async getUserFromClient(client: Client): Promise<OAuthUser | Falsey> {
    const [row] = await this.dataSource.query(
      `SELECT id, email::text AS email FROM "user" WHERE id = $1 AND email_verified`,
      [(client as OAuthClient).userId],
    );
    return row ? { id: row.id, email: row.email } : null;
  }

  async validateScope(_user: User, _client: Client, scope?: string[]): Promise<string[] | Falsey> {
    if (scope && scope.some((s) => s !== USER_SCOPE)) return false;
    return [USER_SCOPE];
  }

  async saveToken(token: Token, client: Client, user: User): Promise<Token | Falsey> {
    const owner = user as OAuthUser;
    const scope = scopeString(token.scope);
    const accessExpiresAt = this.fromLibraryTime(token.accessTokenExpiresAt!);
    const refreshExpiresAt = token.refreshTokenExpiresAt
      ? this.fromLibraryTime(token.refreshTokenExpiresAt)
      : null;
    const familyId = token.refreshToken ? (owner.familyId ?? randomUUID()) : null;
    await this.dataSource.transaction(async (em) => {
      if (familyId && owner.familyId) {
        // Shares the lock revokeFamily() takes: a family revoked meanwhile gets nothing.
        const [code] = await em.query(
          `SELECT revoked_at FROM oauth_authorization_code WHERE family_id = $1 FOR SHARE`,
          [familyId],
        );
        if (code?.revoked_at) throw new InvalidGrantError('Invalid grant: the grant was revoked');
      }
      await em.query(
        `INSERT INTO access_token (token_hash, user_id, client_id, scope, expires_at, family_id)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [hashToken(token.accessToken), owner.id, client.id, scope, accessExpiresAt, familyId],
      );
      if (token.refreshToken) {
        await em.query(
          `INSERT INTO oauth_refresh_token (token_hash, family_id, client_id, user_id, scope, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [hashToken(token.refreshToken), familyId, client.id, owner.id, scope, refreshExpiresAt],
        );
      }
      await em.query(`UPDATE "user" SET last_logged_in_at = $2 WHERE id = $1`, [
        owner.id,
        this.clock.now(),
      ]);
    });
    return {
      ...token,
      accessTokenExpiresAt: accessExpiresAt,
      refreshTokenExpiresAt: refreshExpiresAt ?? undefined,
      client,
      user: { id: owner.id, email: owner.email },
    };
  }

  /** Used by the library's authenticate(); the API's own guard reads tokens the same way. */
  async getAccessToken(accessToken: string): Promise<Token | Falsey> {
    const [row] = await this.dataSource.query(
      `SELECT t.*, u.email::text AS email FROM access_token t JOIN "user" u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      [hashToken(accessToken)],
    );
    if (!row) return null;
    return {
      accessToken,
      accessTokenExpiresAt: this.toLibraryTime(row.expires_at),
      scope: scopeArray(row.scope),
      client: { id: row.client_id, grants: [] },
      user: { id: row.user_id, email: row.email },
    };
  }

  async saveAuthorizationCode(
    code: Pick<
      AuthorizationCode,
      | 'authorizationCode'
      | 'expiresAt'
      | 'redirectUri'
      | 'scope'
      | 'codeChallenge'
      | 'codeChallengeMethod'
    >,
    client: Client,
    user: User,
  ): Promise<AuthorizationCode | Falsey> {
    const expiresAt = this.clock.in(AUTHORIZATION_CODE_LIFETIME);
    await this.dataSource.query(
      `INSERT INTO oauth_authorization_code
         (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, code_challenge_method, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        hashToken(code.authorizationCode),
        client.id,
        user.id,
        code.redirectUri,
        scopeString(code.scope),
        code.codeChallenge ?? null,
        code.codeChallenge ? (code.codeChallengeMethod ?? 'S256') : null,
        expiresAt,
      ],
    );
    return { ...code, expiresAt, client, user };
  }

  async getAuthorizationCode(authorizationCode: string): Promise<AuthorizationCode | Falsey> {
    const [row] = await this.dataSource.query(
      `SELECT c.*, u.email::text AS email FROM oauth_authorization_code c JOIN "user" u ON u.id = c.user_id
        WHERE c.code_hash = $1`,
      [hashToken(authorizationCode)],
    );
    if (!row) return null;
    if (row.used_at) {
      // A code used twice was leaked: what it issued is revoked (RFC 6749 4.1.2).
      await this.revokeFamily(row.family_id);
      return null;
    }
    if (row.revoked_at) return null;
    return {
      authorizationCode,
      expiresAt: this.toLibraryTime(row.expires_at),
      redirectUri: row.redirect_uri ?? undefined,
      scope: scopeArray(row.scope),
      codeChallenge: row.code_challenge ?? undefined,
      codeChallengeMethod: row.code_challenge_method ?? undefined,
      client: { id: row.client_id, grants: [] },
      user: { id: row.user_id, email: row.email, familyId: row.family_id } satisfies OAuthUser,
    };
  }

  async revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
    const rows = await this.dataSource.query(
      `UPDATE oauth_authorization_code SET used_at = $2
        WHERE code_hash = $1 AND used_at IS NULL AND revoked_at IS NULL RETURNING id`,
      [hashToken(code.authorizationCode), this.clock.now()],
    );
    if (rowCount(rows) > 0) return true;
    const familyId = (code.user as OAuthUser).familyId;
    if (familyId) await this.revokeFamily(familyId);
    return false;
  }

  async getRefreshToken(refreshToken: string): Promise<RefreshToken | Falsey> {
    const [row] = await this.dataSource.query(
      `SELECT r.*, u.email::text AS email FROM oauth_refresh_token r JOIN "user" u ON u.id = r.user_id
        WHERE r.token_hash = $1`,
      [hashToken(refreshToken)],
    );
    if (!row) return null;
    if (row.revoked_at) return null;
    if (row.used_at) {
      // A rotated refresh token came back: someone holds a copy. Revoke the family.
      await this.revokeFamily(row.family_id);
      return null;
    }
    return {
      refreshToken,
      refreshTokenExpiresAt: this.toLibraryTime(row.expires_at),
      scope: scopeArray(row.scope),
      client: { id: row.client_id, grants: [] },
      user: { id: row.user_id, email: row.email, familyId: row.family_id } satisfies OAuthUser,
    };
  }

  /** Rotation: the presented refresh token is spent; a concurrent second use loses. */
  async revokeToken(token: RefreshToken | Token): Promise<boolean> {
    if (!token.refreshToken) return false;
    const rows = await this.dataSource.query(
      `UPDATE oauth_refresh_token SET used_at = $2
        WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL RETURNING id`,
      [hashToken(token.refreshToken), this.clock.now()],
    );
    if (rowCount(rows) > 0) return true;
    const familyId = (token.user as OAuthUser).familyId;
    if (familyId) await this.revokeFamily(familyId);
    return false;
  }

  /** Revokes every token of a family and marks it so no new token joins it. */
  async revokeFamily(familyId: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    const now = this.clock.now();
    await em.transaction(async (tx) => {
      await tx.query(
        `UPDATE oauth_authorization_code SET revoked_at = COALESCE(revoked_at, $2) WHERE family_id = $1`,
        [familyId, now],
      );
      await tx.query(
        `UPDATE oauth_refresh_token SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
        [familyId, now],
      );
      await tx.query(
        `UPDATE access_token SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
        [familyId, now],
      );
    });
  }

  private async user(id: string): Promise<OAuthUser | null> {
    const [row] = await this.dataSource.query(
      `SELECT id, email::text AS email FROM "user" WHERE id = $1`,
      [id],
    );
    return row ? { id: row.id, email: row.email } : null;
  }

  /** A date the library computed from the real time, moved onto our clock. */
  private fromLibraryTime(date: Date): Date {
    return new Date(date.getTime() - Date.now() + this.clock.now().getTime());
  }

  /** A stored date moved onto the real time the library compares with. */
  private toLibraryTime(date: Date): Date {
    return new Date(new Date(date).getTime() - this.clock.now().getTime() + Date.now());
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function scopeString(scope: string[] | string | undefined): string | null {
  if (!scope) return null;
  return Array.isArray(scope) ? scope.join(' ') : scope;
}

function scopeArray(scope: string | null): string[] | undefined {
  return scope ? scope.split(' ') : undefined;
}

/** TypeORM's query() answers an UPDATE ... RETURNING as [rows, count] on PostgreSQL. */
function rowCount(result: unknown): number {
  if (Array.isArray(result) && result.length === 2 && typeof result[1] === 'number') {
    return result[1];
  }
  return Array.isArray(result) ? result.length : 0;
}
