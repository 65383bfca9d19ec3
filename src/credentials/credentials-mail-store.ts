import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryOne } from '../database/query';

/** What a mail sender checks of credentials before opening them. */
export interface CredentialsVersionRow {
  id: string;
  team_id: string;
  type: string;
  updated_at: Date;
}

/** The credentials table's SQL for the senders of e-mail notifications. */
@Injectable()
export class CredentialsMailStore {
  constructor(private readonly db: DataSource) {}

  /** The credentials' team, type and version (updated_at), without their secrets. */
  async version(id: string): Promise<CredentialsVersionRow | undefined> {
    return queryOne<CredentialsVersionRow>(
      this.db,
      `SELECT id, team_id, type, updated_at FROM credentials WHERE id = $1`,
      [id],
    );
  }
}
