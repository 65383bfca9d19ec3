import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../access/principal';
import { hashToken, randomSecret } from '../auth/secret-token';
import type { SqlRunner } from '../database/query';
import { ForbiddenError } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { UserStore } from '../users/user-store';
import { OauthClient } from './oauth-client.entity';
import { OauthClientStore } from './oauth-client-store';

/** `<id>_<random>`: the public client id (FOSOAuthServer's format: readable, unguessable). */
export function newPublicId(id: string): string {
  return `${id}_${randomBytes(18).toString('base64url')}`;
}

/** A client made outside HTTP, with the secret shown once. */
export interface IssuedClient {
  client: { id: string; publicId: string };
  secret: string;
}

/**
 * OAuth clients: owned by the caller; the secret is generated here and only hashed. Only the
 * account holder's own tokens manage them (the resource declares `delegated: false`).
 */
@Injectable()
export class OauthClientsService {
  constructor(
    private readonly clients: OauthClientStore,
    private readonly users: UserStore,
  ) {}

  /** Hooks of one creation; the plain secret goes back to the caller once. */
  creationHooks(secret: string): ResourceHooks<OauthClient> {
    const { clients, users } = this;
    return {
      async prepare(client: OauthClient, ctx: WriteContext) {
        // A client's secret is a key to the account: only a proven owner of the address may
        // make one (an unverified account could belong to someone else's address).
        if (!(await users.emailVerified(ctx.em, ctx.principal.userId))) {
          throw new ForbiddenError('Verify your e-mail address before registering OAuth clients.');
        }
        client.user = { id: ctx.principal.userId } as OauthClient['user'];
        client.redirectUris ??= [];
        client.secretHash = hashToken(secret);
        client.publicId = newPublicId(randomSecret(8));
      },
      async persist(client: OauthClient, ctx: WriteContext) {
        await ctx.em.save(client);
        // The public id starts with the row id, known only once saved.
        client.publicId = newPublicId(client.id);
        await clients.setPublicId(ctx.em, client.id, client.publicId);
      },
    };
  }

  /**
   * Deletes every OAuth client `userId` made; their tokens, refresh tokens and codes go with
   * them (foreign keys), those other users granted them included.
   */
  async deleteAllOf(db: SqlRunner, userId: string): Promise<void> {
    await this.clients.deleteAllOf(db, userId);
  }

  /** Creates a client for a user outside HTTP (CLI bootstrap); answers the plain secret. */
  async createFor(
    db: SqlRunner,
    principal: Pick<Principal, 'userId'>,
    name: string,
    redirectUris: string[] = [],
  ): Promise<IssuedClient> {
    const secret = randomSecret();
    const id = await this.clients.insert(db, {
      userId: principal.userId,
      name,
      redirectUris,
      publicId: newPublicId(randomSecret(8)),
      secretHash: hashToken(secret),
    });
    const publicId = newPublicId(id);
    await this.clients.setPublicId(db, id, publicId);
    return { client: { id, publicId }, secret };
  }

  /**
   * The user's client named `name` with a new secret (the old one stops working at once), made
   * when the user has none: what the CLI bootstrap hands out on every run.
   */
  async issueNamed(db: SqlRunner, userId: string, name: string): Promise<IssuedClient> {
    const existing = await this.clients.byName(db, userId, name);
    if (!existing) return this.createFor(db, { userId }, name);
    const secret = randomSecret();
    await this.clients.setSecretHash(db, existing.id, hashToken(secret));
    return { client: { id: existing.id, publicId: existing.public_id }, secret };
  }
}
