import { retentionStatements } from '../retention/retention-rule';

/** User tokens (verification, reset codes) go RETENTION_DAYS_TOKENS after they expire. */
export const USER_TOKEN_RETENTION = retentionStatements({
  table: 'user_token',
  category: 'tokens',
  where: 'x.expires_at < $1',
});
