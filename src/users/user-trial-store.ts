import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/** Each user's one free trial (billing): whether it is spent, and spending it. */
@Injectable()
export class UserTrialStore {
  /** Whether the user has redeemed the trial; the row stays locked for the transaction. */
  async redeemedLocked(runner: SqlRunner, userId: string): Promise<boolean> {
    const row = await queryOne<{ trial_redeemed: boolean }>(
      runner,
      'SELECT trial_redeemed FROM "user" WHERE id = $1 FOR UPDATE',
      [userId],
    );
    return row?.trial_redeemed ?? false;
  }

  async redeem(runner: SqlRunner, userId: string): Promise<void> {
    await query(
      runner,
      'UPDATE "user" SET trial_redeemed = true, updated_at = now() WHERE id = $1',
      [userId],
    );
  }
}
