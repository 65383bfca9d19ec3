import { Injectable } from '@nestjs/common';
import { queryOne, type SqlRunner } from '../database/query';
import type { RetentionRule } from './retention-rule';

/** Session-level advisory lock held by the node sweeping (arbitrary but fixed). */
export const RETENTION_LOCK_KEY = 727_274_201;

/** What one statement of a rule answers: rows per table, and the media its notes used. */
export interface RetentionCounts {
  /** Rows of the rule's table. */
  n: number;
  /** Rows of its children, `c0`, `c1`, ... in the rule's order. */
  [child: `c${number}`]: number;
  /** Count statement: stored files the deleted rows name. */
  files?: number;
  /** Batch statement of a rule whose rows carry notes: ids of the media those notes used. */
  note_media?: string[];
}

/**
 * The sweep's statements on its own connection: the session lock that lets one node sweep,
 * and the rules' statements, declared by the modules that own their tables (retention-rule.ts).
 */
@Injectable()
export class RetentionStore {
  async tryLock(client: SqlRunner): Promise<boolean> {
    const row = await queryOne<{ locked: boolean }>(
      client,
      'SELECT pg_try_advisory_lock($1) AS locked',
      [RETENTION_LOCK_KEY],
    );
    return row?.locked === true;
  }

  /** Waits for the lock (a sweep running on another node ends first). */
  async lock(client: SqlRunner): Promise<void> {
    await queryOne(client, 'SELECT pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
  }

  async unlock(client: SqlRunner): Promise<void> {
    await queryOne(client, 'SELECT pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
  }

  /** One batch of the rule: up to `limit` rows finished before `cutoff` deleted. */
  async deleteBatch(
    client: SqlRunner,
    rule: RetentionRule,
    cutoff: Date,
    limit: number,
  ): Promise<RetentionCounts> {
    return (await queryOne<RetentionCounts>(client, rule.batchSql, [cutoff, limit]))!;
  }

  /** What the rule would delete now, every batch together. */
  async count(client: SqlRunner, rule: RetentionRule, cutoff: Date): Promise<RetentionCounts> {
    return (await queryOne<RetentionCounts>(client, rule.countSql, [cutoff]))!;
  }
}
