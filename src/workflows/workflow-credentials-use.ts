import { Injectable } from '@nestjs/common';
import type { CredentialsUse, UsedCredentials } from '../credentials/credentials-use';
import type { SqlRunner } from '../database/query';
import { WorkflowStore } from './workflow-store';

/** Credentials that workflows use cannot be deleted (CREDENTIALS_USES). */
@Injectable()
export class WorkflowCredentialsUse implements CredentialsUse {
  constructor(private readonly workflows: WorkflowStore) {}

  async refusal(runner: SqlRunner, credentials: UsedCredentials): Promise<string | null> {
    const n = await this.workflows.usingCredentials(runner, credentials.id);
    return n > 0
      ? `These credentials are used by ${n} workflow(s); change or delete them first.`
      : null;
  }
}
