import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryOne } from '../database/query';

/** A stored generated theme (its JSON as the generator wrote it). */
export interface GeneratedThemeRow<T> {
  id: string;
  theme: T;
}

/** The generated_theme table's SQL. */
@Injectable()
export class GeneratedThemeStore {
  constructor(private readonly db: DataSource) {}

  /** The newest theme generated from the address within the last `days` days. */
  async recent<T>(sourceUrl: string, days: number): Promise<GeneratedThemeRow<T> | undefined> {
    return queryOne<GeneratedThemeRow<T>>(
      this.db,
      `SELECT id, theme FROM generated_theme
        WHERE source_url = $1 AND created_at > now() - make_interval(days => $2)
        ORDER BY created_at DESC LIMIT 1`,
      [sourceUrl, days],
    );
  }

  /** A new row for the address, its theme still empty; its id. */
  async create(sourceUrl: string): Promise<string> {
    const row = await queryOne<{ id: string }>(
      this.db,
      `INSERT INTO generated_theme (source_url, theme) VALUES ($1, '{}'::jsonb) RETURNING id`,
      [sourceUrl],
    );
    return row!.id;
  }

  async setTheme(id: string, theme: unknown): Promise<void> {
    await execute(this.db, `UPDATE generated_theme SET theme = $2 WHERE id = $1`, [
      id,
      JSON.stringify(theme),
    ]);
  }

  async theme<T>(id: string): Promise<T | null> {
    const row = await queryOne<{ theme: T }>(
      this.db,
      `SELECT theme FROM generated_theme WHERE id = $1`,
      [id],
    );
    return row?.theme ?? null;
  }
}
