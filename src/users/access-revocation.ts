import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TokenIssuer } from '../auth/token-issuer';
import { OauthClientsService } from '../oauth-clients/oauth-clients.service';

/** What survives when the account's access is ended. */
export interface KeptAccess {
  /** The OAuth clients the account made stay (their tokens do not). */
  keepOAuthClients: boolean;
  /** The access token that asked for it (a password change), when it may stay. */
  keepTokenId: string | null;
}

/**
 * Ends the access someone who held the account may have kept: every token, refresh token and
 * authorization code of the user, and (unless kept) every OAuth client the account made, whose
 * secrets would mint new tokens. Run in the transaction of the password reset, password change
 * or first proof of the address that calls for it.
 */
@Injectable()
export class AccessRevocation {
  constructor(
    private readonly tokens: TokenIssuer,
    private readonly clients: OauthClientsService,
  ) {}

  async revoke(em: EntityManager, userId: string, kept: KeptAccess): Promise<void> {
    await this.tokens.revokeAllFor(userId, em, kept.keepTokenId);
    if (!kept.keepOAuthClients) await this.clients.deleteAllOf(em, userId);
  }
}
