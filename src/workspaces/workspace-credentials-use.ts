import { Injectable } from '@nestjs/common';
import type { CredentialsUse, UsedCredentials } from '../credentials/credentials-use';
import type { SqlRunner } from '../database/query';
import { WorkspaceLookupStore } from './workspace-lookup-store';

/**
 * Credentials a workspace sends its e-mail through (emailSettings.smtpCredentials) cannot be
 * deleted (CREDENTIALS_USES).
 */
@Injectable()
export class WorkspaceCredentialsUse implements CredentialsUse {
  constructor(private readonly workspaces: WorkspaceLookupStore) {}

  async refusal(runner: SqlRunner, credentials: UsedCredentials): Promise<string | null> {
    const n = await this.workspaces.smtpCredentialsUses(runner, credentials.teamId, credentials.id);
    return n > 0
      ? `These credentials are the SMTP server of ${n} workspace(s); change their emailSettings first.`
      : null;
  }
}
