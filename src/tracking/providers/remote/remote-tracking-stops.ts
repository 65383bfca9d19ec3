import { query, type SqlRunner } from '../../../database/query';

/** A number to stop at a credentials record (`instance` for TRACKING_PROVIDER). */
export interface StopRequest {
  credentialsKey: string;
  trackingNumber: string;
  /** The carrier it was registered with (some providers stop by number and carrier). */
  carrierCode: string | null;
}

/** A stop claimed for an attempt: `attempts` counts this one. */
export interface ClaimedStop extends StopRequest {
  attempts: number;
}

interface StopRow {
  credentials_key: string;
  tracking_number: string;
  carrier_code: string | null;
  attempts: number;
}

const toJson = (stops: readonly Pick<StopRequest, 'credentialsKey' | 'trackingNumber'>[]) =>
  JSON.stringify(
    stops.map((s) => ({ credentials_key: s.credentialsKey, tracking_number: s.trackingNumber })),
  );

/**
 * The SQL of remote_tracking_stop: numbers to stop at a provider, kept until the provider
 * stopped them or we gave up, so that a failed stop is retried on a later pass (rules in
 * remote-stop-rules.ts). Claims skip rows another node holds and lease them by moving
 * `next_attempt_at`, so a stop is sent by one node at a time and a dead node's come back.
 */
export const remoteTrackingStops = {
  /**
   * Queues stops, due `now` (null: at once, whatever a node's clock says, for stops queued
   * where no tracking clock is at hand); a number already queued keeps its attempts and schedule.
   */
  async enqueue(runner: SqlRunner, stops: readonly StopRequest[], now: Date | null): Promise<void> {
    if (stops.length === 0) return;
    await runner.query(
      `INSERT INTO remote_tracking_stop (credentials_key, tracking_number, carrier_code,
              next_attempt_at)
       SELECT DISTINCT ON (q.credentials_key, q.tracking_number)
              q.credentials_key, q.tracking_number, q.carrier_code,
              coalesce($2::timestamptz, '-infinity'::timestamptz)
         FROM jsonb_to_recordset($1::jsonb)
              AS q(credentials_key text, tracking_number text, carrier_code text)
       ON CONFLICT (credentials_key, tracking_number) DO NOTHING`,
      [
        JSON.stringify(
          stops.map((s) => ({
            credentials_key: s.credentialsKey,
            tracking_number: s.trackingNumber,
            carrier_code: s.carrierCode,
          })),
        ),
        now,
      ],
    );
  },

  /**
   * Moves the stops queued at one credentials key to another (credentials retired under a new
   * key: what was queued there was registered with the old account).
   */
  async rekey(runner: SqlRunner, fromKey: string, toKey: string): Promise<void> {
    await runner.query(
      `WITH moved AS (
         DELETE FROM remote_tracking_stop WHERE credentials_key = $1
         RETURNING tracking_number, carrier_code, attempts, next_attempt_at, last_error, created_at)
       INSERT INTO remote_tracking_stop (credentials_key, tracking_number, carrier_code, attempts,
              next_attempt_at, last_error, created_at)
       SELECT $2, tracking_number, carrier_code, attempts, next_attempt_at, last_error, created_at
         FROM moved
       ON CONFLICT (credentials_key, tracking_number) DO NOTHING`,
      [fromKey, toKey],
    );
  },

  /** Whether any stop is queued at this credentials key. */
  async anyQueued(runner: SqlRunner, credentialsKey: string): Promise<boolean> {
    const rows = await query(
      runner,
      `SELECT 1 FROM remote_tracking_stop WHERE credentials_key = $1 LIMIT 1`,
      [credentialsKey],
    );
    return rows.length > 0;
  },

  /** Drops queued stops of numbers about to be registered at these credentials again. */
  async cancel(runner: SqlRunner, credentialsKey: string, numbers: readonly string[]) {
    if (numbers.length === 0) return;
    await runner.query(
      `DELETE FROM remote_tracking_stop
        WHERE credentials_key = $1 AND tracking_number = ANY($2::text[])`,
      [credentialsKey, numbers],
    );
  },

  /**
   * Claims up to `limit` due stops (only those of `only` when given), oldest due first: counts
   * the attempt and leases them until `leaseUntil`.
   */
  async claim(
    runner: SqlRunner,
    options: {
      now: Date;
      leaseUntil: Date;
      limit: number;
      only?: readonly Pick<StopRequest, 'credentialsKey' | 'trackingNumber'>[];
    },
  ): Promise<ClaimedStop[]> {
    const result = await query<StopRow>(
      runner,
      `WITH due AS (
         SELECT r.credentials_key, r.tracking_number FROM remote_tracking_stop r
          WHERE r.next_attempt_at <= $1
            AND ($4::jsonb IS NULL OR (r.credentials_key, r.tracking_number) IN (
                  SELECT o.credentials_key, o.tracking_number
                    FROM jsonb_to_recordset($4::jsonb) AS o(credentials_key text, tracking_number text)))
          ORDER BY r.next_attempt_at
          LIMIT $3
          FOR UPDATE SKIP LOCKED)
       UPDATE remote_tracking_stop r SET attempts = r.attempts + 1, next_attempt_at = $2
         FROM due
        WHERE r.credentials_key = due.credentials_key AND r.tracking_number = due.tracking_number
       RETURNING r.credentials_key, r.tracking_number, r.carrier_code, r.attempts`,
      [options.now, options.leaseUntil, options.limit, options.only ? toJson(options.only) : null],
    );
    return result.map((r) => ({
      credentialsKey: r.credentials_key,
      trackingNumber: r.tracking_number,
      carrierCode: r.carrier_code,
      attempts: r.attempts,
    }));
  },

  /** Stops that ended: the provider stopped the number, there was nothing to stop, or we gave up. */
  async finish(
    runner: SqlRunner,
    stops: readonly Pick<StopRequest, 'credentialsKey' | 'trackingNumber'>[],
  ): Promise<void> {
    if (stops.length === 0) return;
    await runner.query(
      `DELETE FROM remote_tracking_stop r
        USING jsonb_to_recordset($1::jsonb) AS q(credentials_key text, tracking_number text)
        WHERE r.credentials_key = q.credentials_key AND r.tracking_number = q.tracking_number`,
      [toJson(stops)],
    );
  },

  /** A failed attempt: tried again at `at`; the error is kept for whoever looks. */
  async retryAt(
    runner: SqlRunner,
    stop: Pick<StopRequest, 'credentialsKey' | 'trackingNumber'>,
    at: Date,
    error: string,
  ): Promise<void> {
    await runner.query(
      `UPDATE remote_tracking_stop SET next_attempt_at = $3, last_error = $4
        WHERE credentials_key = $1 AND tracking_number = $2`,
      [stop.credentialsKey, stop.trackingNumber, at, error],
    );
  },
};
