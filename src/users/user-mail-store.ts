import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query } from '../database/query';
import { isTeamMemberSql } from '../teams/team-mail-store';
import { workspaceTeamIdSql } from '../workspaces/workspace-page-store';

/** The user table's SQL for e-mail notifications' test mails. */
@Injectable()
export class UserMailStore {
  constructor(private readonly db: DataSource) {}

  /**
   * Whether `email` is the verified address of the user `userId`, or of a member of the team
   * of the workspace.
   */
  async isTestRecipient(email: string, userId: string, workspaceId: string): Promise<boolean> {
    const rows = await query(
      this.db,
      `SELECT 1 FROM "user" u
        WHERE u.email = $1 AND u.email_verified
          AND (u.id = $2 OR ${isTeamMemberSql('u.id', workspaceTeamIdSql('$3'))})`,
      [email, userId, workspaceId],
    );
    return rows.length > 0;
  }
}
