import type { SqlRunner } from '../database/query';

/** Credentials about to be deleted, as the modules using them are asked. */
export interface UsedCredentials {
  id: string;
  teamId: string;
}

/**
 * A module whose records name credentials (workflows, workspaces' SMTP server): credentials
 * still in use there cannot be deleted. Provided under CREDENTIALS_USES in that module's own
 * `@Module`; CredentialsService asks every provider before a delete.
 */
export interface CredentialsUse {
  /** Why the credentials cannot go (one sentence saying what to change first), or null. */
  refusal(runner: SqlRunner, credentials: UsedCredentials): Promise<string | null>;
}

export const CREDENTIALS_USES = Symbol('credentials:uses');
