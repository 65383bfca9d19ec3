import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { assertAccountManager, type Principal } from '../access/principal';
import { hashToken, randomSecret } from '../auth/secret-token';
import { ForbiddenError } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { OauthClient } from './oauth-client.entity';

/** `<id>_<random>`: the public client id (FOSOAuthServer's format: readable, unguessable). */
export function newPublicId(id: string): string {
  return `${id}_${randomBytes(18).toString('base64url')}`;
}

/**
 * OAuth clients: owned by the caller; the secret is generated here and only hashed. Only the
 * account holder's own tokens manage them (not a token granted to a third-party application).
 */
@Injectable()
export class OauthClientsService implements ResourceHooks<OauthClient> {
  beforeRemove(_client: OauthClient, ctx: WriteContext): void {
    assertAccountManager(ctx.principal, 'OAuth clients');
  }

  /** Hooks of one creation; the plain secret goes back to the caller once. */
  creationHooks(secret: string): ResourceHooks<OauthClient> {
    return {
      async prepare(client: OauthClient, ctx: WriteContext) {
        assertAccountManager(ctx.principal, 'OAuth clients');
        // A client's secret is a key to the account: only a proven owner of the address may
        // make one (an unverified account could belong to someone else's address).
        const [user] = await ctx.em.query(`SELECT email_verified FROM "user" WHERE id = $1`, [
          ctx.principal.userId,
        ]);
        if (!user?.email_verified) {
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
        await ctx.em.update(OauthClient, { id: client.id }, { publicId: client.publicId });
      },
    };
  }

  /** Creates a client for a user outside HTTP (CLI bootstrap); returns the plain secret. */
  async createFor(
    em: EntityManager,
    principal: Pick<Principal, 'userId'>,
    name: string,
    redirectUris: string[] = [],
  ): Promise<{ client: OauthClient; secret: string }> {
    const secret = randomSecret();
    const client = em.create(OauthClient, {
      name,
      redirectUris,
      user: { id: principal.userId },
      publicId: newPublicId(randomSecret(8)),
      secretHash: hashToken(secret),
    });
    await em.save(client);
    client.publicId = newPublicId(client.id);
    await em.update(OauthClient, { id: client.id }, { publicId: client.publicId });
    return { client, secret };
  }

  /** Replaces the secret of an existing client (the old one stops working at once). */
  async rotateSecret(em: EntityManager, clientId: string): Promise<string> {
    const secret = randomSecret();
    await em.update(OauthClient, { id: clientId }, { secretHash: hashToken(secret) });
    return secret;
  }
}
