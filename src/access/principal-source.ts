import type { Principal } from './principal';

/**
 * Where principals come from: the module that owns access tokens provides it (the auth
 * module's PrincipalStore), so the access layer names no table of a feature module and
 * imports none. Each look-up is one statement: it runs for every request.
 */
export interface PrincipalSource {
  /**
   * The principal of a live access token (not revoked, expiring after `now`, by default the
   * time of the clock every expiry decision uses) found by the token's SHA-256, with every
   * membership; null when there is none.
   */
  byTokenHash(tokenHash: string, now?: Date): Promise<Principal | null>;
  /** The principal of a user without a token (work done for them), or null. */
  byUser(userId: string): Promise<Principal | null>;
}

/** The injection token of the PrincipalSource, provided by the auth module. */
export const PRINCIPAL_SOURCE = Symbol('PRINCIPAL_SOURCE');
