import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/**
 * The storefront_installation_use table's SQL: installation tokens (by hash) that have served
 * a registration, each once.
 */
@Injectable()
export class StorefrontInstallationStore {
  async used(runner: SqlRunner, tokenHash: string): Promise<boolean> {
    const rows = await query(
      runner,
      'SELECT 1 FROM storefront_installation_use WHERE token_hash = $1',
      [tokenHash],
    );
    return rows.length > 0;
  }

  /** Spends the token; false when it was spent already (by another registration meanwhile). */
  async spend(runner: SqlRunner, tokenHash: string): Promise<boolean> {
    const rows = await query(
      runner,
      `INSERT INTO storefront_installation_use (token_hash) VALUES ($1)
       ON CONFLICT DO NOTHING RETURNING token_hash`,
      [tokenHash],
    );
    return rows.length > 0;
  }
}
