import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryOne, type SqlRunner } from '../database/query';

/** How a workspace sends its e-mail notifications. */
export interface WorkspaceMailRow {
  title: string;
  team_id: string;
  /** `emailSettings.smtpCredentials`: the IRI of the credentials to send with, or null. */
  smtp_credentials: string | null;
}

/** The workspace table's SQL for e-mail notifications. */
@Injectable()
export class WorkspaceNotificationStore {
  constructor(private readonly db: DataSource) {}

  /** Locks the workspace row until the transaction ends (serialises resets of its defaults). */
  async lock(runner: SqlRunner, id: string): Promise<void> {
    await execute(runner, `SELECT id FROM workspace WHERE id = $1 FOR UPDATE`, [id]);
  }

  async title(id: string): Promise<string | undefined> {
    const row = await queryOne<{ title: string }>(
      this.db,
      `SELECT title FROM workspace WHERE id = $1`,
      [id],
    );
    return row?.title;
  }

  async mailSettings(id: string): Promise<WorkspaceMailRow | undefined> {
    return queryOne<WorkspaceMailRow>(
      this.db,
      `SELECT title, team_id, email_settings->>'smtpCredentials' AS smtp_credentials
         FROM workspace WHERE id = $1`,
      [id],
    );
  }
}
