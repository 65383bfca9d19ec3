import { Injectable } from '@nestjs/common';
import { execute, query, type SqlRunner } from '../database/query';

/** A team's backfill as a node claimed it. */
export interface ClaimedBackfill {
  teamId: string;
  /** This claim included. */
  attempts: number;
}

/** What a backfill did, recorded when it finishes. */
export interface BackfillResult {
  /** The team's shipments counted into the aggregates. */
  shipments: number;
  /** Contributions written (those that differed from what was stored). */
  contributions: number;
  /** Parcels given their first decision: a window, attention, or both. */
  decided: number;
}

/** A team's row of the queue, for the operator (`prediction-backfill` CLI) and the tests. */
export interface BackfillRow extends Partial<BackfillResult> {
  team_id: string;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  attempts: number;
  error: string | null;
}

/**
 * The queue of teams whose history is counted into the prediction aggregates in the background
 * (table `prediction_backfill`, filled by its migration for databases that predate
 * predictions). One team at a time per node: a claim holds a lease, so a node that dies
 * mid-way leaves the team to another once the lease ends.
 */
@Injectable()
export class PredictionBackfillStore {
  /** Queues the team (again, if it was done: a bulk load of old shipments). */
  async enqueue(runner: SqlRunner, teamId: string): Promise<void> {
    await execute(
      runner,
      `INSERT INTO prediction_backfill (team_id) VALUES ($1)
       ON CONFLICT (team_id) DO UPDATE SET queued_at = now(), started_at = NULL,
              lease_until = NULL, finished_at = NULL, attempts = 0, error = NULL`,
      [teamId],
    );
  }

  /**
   * The oldest queued team nobody holds, leased until `leaseUntil`; null when none is due.
   * A team that failed `maxAttempts` times stays with its error until queued again.
   */
  async claim(
    runner: SqlRunner,
    now: Date,
    leaseUntil: Date,
    maxAttempts: number,
  ): Promise<ClaimedBackfill | null> {
    const [row] = await query<{ team_id: string; attempts: number }>(
      runner,
      `UPDATE prediction_backfill b
          SET started_at = coalesce(b.started_at, $1), lease_until = $2, attempts = b.attempts + 1
        WHERE b.team_id = (
              SELECT team_id FROM prediction_backfill
               WHERE finished_at IS NULL AND attempts < $3
                 AND (lease_until IS NULL OR lease_until <= $1)
               ORDER BY queued_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING b.team_id, b.attempts`,
      [now, leaseUntil, maxAttempts],
    );
    return row ? { teamId: row.team_id, attempts: row.attempts } : null;
  }

  /** Extends the lease of a backfill still running on this node. */
  async renew(runner: SqlRunner, teamId: string, leaseUntil: Date): Promise<void> {
    await execute(
      runner,
      `UPDATE prediction_backfill SET lease_until = $2 WHERE team_id = $1 AND finished_at IS NULL`,
      [teamId, leaseUntil],
    );
  }

  async finish(
    runner: SqlRunner,
    teamId: string,
    result: BackfillResult,
    now: Date,
  ): Promise<void> {
    await execute(
      runner,
      `UPDATE prediction_backfill SET finished_at = $2, lease_until = NULL, error = NULL,
              shipments = $3, contributions = $4, decided = $5
        WHERE team_id = $1`,
      [teamId, now, result.shipments, result.contributions, result.decided],
    );
  }

  /** Records the failure; the team is tried again from `retryAt` (its lease ends then). */
  async fail(runner: SqlRunner, teamId: string, error: string, retryAt: Date): Promise<void> {
    await execute(
      runner,
      `UPDATE prediction_backfill SET error = $2, lease_until = $3 WHERE team_id = $1`,
      [teamId, error.slice(0, 2000), retryAt],
    );
  }

  /** Every queued team, the unfinished first. */
  async list(runner: SqlRunner): Promise<BackfillRow[]> {
    return query<BackfillRow>(
      runner,
      `SELECT team_id, queued_at, started_at, finished_at, attempts, shipments, contributions,
              decided, error
         FROM prediction_backfill ORDER BY finished_at IS NOT NULL, queued_at`,
    );
  }
}
