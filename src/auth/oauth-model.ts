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
import { OauthClientStore } from '../oauth-clients/oauth-client-store';
import { UserStore } from '../users/user-store';
import { AccessTokenStore } from './access-token-store';
import { Clock } from '../common/clock';
import { OAuthGrantStore } from './oauth-grant-store';
import { isFirstPartyRedirectUri } from './first-party-client';
import { hashToken } from './secret-token';
import { REFRESH_TOKEN_REUSE_INTERVAL } from './token-issuer';

/** The only scope there is: the token acts as its user. */
export const USER_SCOPE = 'user';
export const AUTHORIZATION_CODE_LIFETIME = 600;

/** What travels with `user` through the library: the family tokens are issued into. */
export interface OAuthUser extends User {
  id: string;
  email: string;
  familyId?: string;
  /** The refresh token being exchanged: the one the new refresh token replaces. */
  refreshTokenId?: string;
}

export interface OAuthClient extends Client {
  id: string;
  /** Null for a first-party client (no owner, no secret). */
  userId: string | null;
  firstParty: boolean;
}

/**
 * The @node-oauth/oauth2-server model on our tables. Codes and tokens are stored as
 * SHA-256. Tokens from one authorization code form a family (access and refresh tokens,
 * and their rotations); a reused code or refresh token revokes the whole family, and a
 * revoked family cannot grow. One reuse is forgiven: a refresh token presented again within
 * REFRESH_TOKEN_REUSE_INTERVAL of its rotation, while its successor is unused, is rotated
 * again and the unused successor spent (so that one coming back later is the reuse). Expiry follows the injected Clock: the library compares
 * with the real time, so dates are translated between the two at the boundary.
 */
@Injectable()
export class OAuthModel
  implements AuthorizationCodeModel, ClientCredentialsModel, RefreshTokenModel
{
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly clients: OauthClientStore,
    private readonly users: UserStore,
    private readonly accessTokens: AccessTokenStore,
    private readonly grants: OAuthGrantStore,
  ) {}

  async getClient(clientId: string, clientSecret: string | null): Promise<OAuthClient | Falsey> {
    const row = await this.clients.byPublicId(this.dataSource, clientId);
    if (!row) return null;
    // No secret: the authorization page, a PKCE exchange, or a public client's refresh
    // (OAuthService lets only a first-party client refresh without one).
    if (clientSecret != null && !sameHash(hashToken(clientSecret), row.secret_hash)) return null;
    return {
      id: row.id,
      userId: row.user_id,
      firstParty: row.first_party,
      redirectUris: row.redirect_uris,
      grants: row.grants,
    };
  }

  /**
   * The library's redirect URI check: the registered list, or for a first-party client the
   * console's path (AuthorizationRequests has already matched it to the request's origin).
   */
  async validateRedirectUri(redirectUri: string, client: Client): Promise<boolean> {
    if ((client as OAuthClient).firstParty) return isFirstPartyRedirectUri(redirectUri);
    return (client.redirectUris ?? []).includes(redirectUri);
  }

  /**
   * Client credentials act as the client's owner, who must have proven their address: an
   * unverified account may belong to someone else's address (a storefront registration).
   */
  async getUserFromClient(client: Client): Promise<OAuthUser | Falsey> {
    const owner = (client as OAuthClient).userId;
    if (!owner) return null;
    const user = await this.users.verifiedIdentity(this.dataSource, owner);
    return user ? { id: user.id, email: user.email } : null;
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
    // Code and refresh grants issue a refresh token (the console's too): the family it joins.
    const familyId = token.refreshToken ? (owner.familyId ?? randomUUID()) : null;
    await this.dataSource.transaction(async (em) => {
      if (familyId && owner.familyId) {
        // Shares the lock revokeFamily() takes: a family revoked meanwhile gets nothing.
        if (await this.grants.familyRevokedAt(em, familyId))
          throw new InvalidGrantError('Invalid grant: the grant was revoked');
      }
      await this.accessTokens.insert(em, {
        tokenHash: hashToken(token.accessToken),
        userId: owner.id,
        clientId: client.id,
        scope,
        expiresAt: accessExpiresAt,
        familyId,
      });
      if (token.refreshToken && familyId) {
        await this.grants.insertRefreshToken(em, {
          tokenHash: hashToken(token.refreshToken),
          familyId,
          clientId: client.id,
          userId: owner.id,
          scope,
          expiresAt: refreshExpiresAt!,
          replaces: owner.refreshTokenId ?? null,
        });
      }
      await this.users.recordLogin(em, owner.id, this.clock.now());
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
    const row = await this.accessTokens.live(this.dataSource, hashToken(accessToken));
    if (!row) return null;
    return {
      accessToken,
      accessTokenExpiresAt: this.toLibraryTime(row.expires_at),
      scope: scopeArray(row.scope),
      // A first-party session's token has no client.
      client: { id: row.client_id, grants: [] } as Client,
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
    await this.grants.insertCode(this.dataSource, {
      codeHash: hashToken(code.authorizationCode),
      clientId: client.id,
      userId: (user as OAuthUser).id,
      redirectUri: code.redirectUri ?? null,
      scope: scopeString(code.scope),
      codeChallenge: code.codeChallenge ?? null,
      codeChallengeMethod: code.codeChallenge ? (code.codeChallengeMethod ?? 'S256') : null,
      expiresAt,
    });
    return { ...code, expiresAt, client, user };
  }

  async getAuthorizationCode(authorizationCode: string): Promise<AuthorizationCode | Falsey> {
    const row = await this.grants.code(this.dataSource, hashToken(authorizationCode));
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
      // Absent when the request named none (the client's only registered URI was used).
      redirectUri: (row.redirect_uri ?? undefined) as string,
      scope: scopeArray(row.scope),
      codeChallenge: row.code_challenge ?? undefined,
      codeChallengeMethod: row.code_challenge_method ?? undefined,
      client: { id: row.client_id, grants: [] },
      user: { id: row.user_id, email: row.email, familyId: row.family_id } satisfies OAuthUser,
    };
  }

  async revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
    const hash = hashToken(code.authorizationCode);
    if (await this.grants.spendCode(this.dataSource, hash, this.clock.now())) return true;
    const familyId = (code.user as OAuthUser).familyId;
    if (familyId) await this.revokeFamily(familyId);
    return false;
  }

  async getRefreshToken(refreshToken: string): Promise<RefreshToken | Falsey> {
    const row = await this.grants.refreshToken(this.dataSource, hashToken(refreshToken));
    if (!row) return null;
    if (row.revoked_at) return null;
    if (row.used_at && !(await this.mayReuse(row.id, row.used_at))) {
      // A rotated refresh token came back: someone holds a copy. Revoke the family.
      await this.revokeFamily(row.family_id);
      return null;
    }
    return {
      refreshToken,
      refreshTokenExpiresAt: this.toLibraryTime(row.expires_at),
      scope: scopeArray(row.scope),
      client: { id: row.client_id, grants: [] },
      user: {
        id: row.user_id,
        email: row.email,
        familyId: row.family_id,
        refreshTokenId: row.id,
      } satisfies OAuthUser,
    };
  }

  /** A rotated token's lost answer: rotated moments ago, and its successor never used. */
  private async mayReuse(tokenId: string, usedAt: Date): Promise<boolean> {
    if (usedAt < this.reuseSince()) return false;
    return this.grants.hasLiveSuccessor(this.dataSource, tokenId);
  }

  private reuseSince(): Date {
    return new Date(this.clock.now().getTime() - REFRESH_TOKEN_REUSE_INTERVAL * 1000);
  }

  /** Rotation: the presented refresh token is spent; a concurrent second use loses. */
  async revokeToken(token: RefreshToken | Token): Promise<boolean> {
    if (!token.refreshToken) return false;
    const hash = hashToken(token.refreshToken);
    const now = this.clock.now();
    if (await this.grants.spendRefreshToken(this.dataSource, hash, now)) return true;
    const { familyId, refreshTokenId } = token.user as OAuthUser;
    // Forgiven reuse (getRefreshToken): the successor is spent instead; false if it was used
    // meanwhile, or another request got there first.
    if (
      refreshTokenId &&
      (await this.grants.spendSuccessor(this.dataSource, refreshTokenId, this.reuseSince(), now))
    )
      return true;
    if (familyId) await this.revokeFamily(familyId);
    return false;
  }

  /** Whether the client is public (first-party: it holds no secret), unknown ones not. */
  async isPublicClient(clientId: string): Promise<boolean> {
    const row = await this.clients.byPublicId(this.dataSource, clientId);
    return row?.first_party === true;
  }

  /** Revokes every token of a family and marks it so no new token joins it. */
  async revokeFamily(familyId: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    const now = this.clock.now();
    await em.transaction(async (tx) => {
      await this.grants.revokeFamily(tx, familyId, now);
      await this.accessTokens.revokeFamily(tx, familyId, now);
    });
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
