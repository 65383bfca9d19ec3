import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Principal } from './principal';
import { PRINCIPAL_SOURCE, type PrincipalSource } from './principal-source';

/** The stored form of a token or code: its SHA-256 (they are random, high-entropy secrets). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Resolves a bearer token to the principal with all its memberships in one indexed statement
 * (PRINCIPAL_SOURCE): the token by its SHA-256, then teams and visible workspaces. Workspaces
 * scheduled for deletion are left out, so they and everything in them answer 404 while the
 * background deletion works through them.
 */
@Injectable()
export class PrincipalLoader {
  constructor(@Inject(PRINCIPAL_SOURCE) private readonly source: PrincipalSource) {}

  /**
   * One round trip: the token (by SHA-256, live at `now`, by default the source's clock: tests
   * move it) and the user's memberships.
   */
  fromToken(token: string, now?: Date): Promise<Principal | null> {
    return this.source.byTokenHash(hashToken(token), now);
  }

  forUser(userId: string): Promise<Principal | null> {
    return this.source.byUser(userId);
  }
}
