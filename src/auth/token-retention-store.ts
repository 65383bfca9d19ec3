import { retentionStatements } from '../retention/retention-rule';

/**
 * The auth tables the retention sweep keeps short (RETENTION_DAYS_TOKENS):
 * - access_token: counted from expiry (a lookup refuses them long before).
 * - oauth_refresh_token: counted from expiry. A rotated (used) token is the tripwire of reuse
 *   detection (presenting it revokes its family), so it is kept for the same grace after its
 *   own expiry; later its copy is refused as unknown instead.
 * - oauth_authorization_code: counted from expiry, and only once no refresh token of its
 *   family survives this sweep: the code row carries the family's `revoked_at` mark that
 *   OAuthModel.saveToken checks before the family may grow. Its condition reads the refresh
 *   tokens with the same cut-off (the same category), or a code could go while its family
 *   is still alive.
 */
export const TOKEN_RETENTION = [
  retentionStatements({ table: 'access_token', category: 'tokens', where: 'x.expires_at < $1' }),
  retentionStatements({
    table: 'oauth_refresh_token',
    category: 'tokens',
    where: 'x.expires_at < $1',
  }),
  retentionStatements({
    table: 'oauth_authorization_code',
    category: 'tokens',
    where: `x.expires_at < $1 AND NOT EXISTS (
              SELECT 1 FROM oauth_refresh_token r
               WHERE r.family_id = x.family_id AND r.expires_at >= $1)`,
  }),
];
