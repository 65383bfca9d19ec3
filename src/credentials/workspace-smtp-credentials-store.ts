import { Injectable } from '@nestjs/common';
import { queryOne, type SqlRunner } from '../database/query';

/** What a workspace's e-mail settings check of the SMTP credentials they name. */
@Injectable()
export class WorkspaceSmtpCredentialsStore {
  /** The credentials' type and team, or undefined when they do not exist. */
  async typeAndTeam(
    db: SqlRunner,
    id: string,
  ): Promise<{ type: string; team_id: string } | undefined> {
    return queryOne(db, `SELECT type, team_id FROM credentials WHERE id = $1`, [id]);
  }
}
