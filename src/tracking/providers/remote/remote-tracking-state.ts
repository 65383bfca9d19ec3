import { isFinal, TRACKING_STATUSES } from '../../statuses';
import type { RemoteShipment } from './remote-tracking';
import type { StopRequest } from './remote-tracking-stops';
import { query, type SqlRunner } from '../../../database/query';
import { shipmentTrackingSql } from '../../../shipments/shipment-tracking-store';

/** Statuses after which a shipment's number is not tracked any more (stopped at its provider). */
const FINAL_CODES = TRACKING_STATUSES.filter((s) => isFinal(s.code)).map((s) => s.code);

/** A row of shipment_remote_tracking: which credentials track a shipment's number. */
export interface RemoteTrackingState {
  shipmentId: string;
  credentialsKey: string;
  trackingNumber: string;
  /** The carrier the number was registered with. */
  carrierCode: string | null;
  registeredAt: Date | null;
  stoppedAt: Date | null;
  lastPushAt: Date | null;
  /** Push subscriptions that lapse (UPS Track Alert): last accepted, last refused. */
  pushSubscribedAt: Date | null;
  pushRefusedAt: Date | null;
}

export interface RemoteTrackingMark {
  shipmentId: string;
  credentialsKey: string;
  trackingNumber: string;
  carrierCode: string | null;
  /** The number is (now) registered with the provider. */
  registered: boolean;
}

interface StateRow {
  shipment_id: string;
  credentials_key: string;
  tracking_number: string;
  carrier_code: string | null;
  registered_at: Date | null;
  stopped_at: Date | null;
  last_push_at: Date | null;
  push_subscribed_at: Date | null;
  push_refused_at: Date | null;
}

const COLUMNS = `shipment_id, credentials_key, tracking_number, carrier_code, registered_at,
  stopped_at, last_push_at, push_subscribed_at, push_refused_at`;

/** The SQL of shipment_remote_tracking (registration, stop and push state per shipment). */
export const remoteTrackingState = {
  async load(runner: SqlRunner, shipmentIds: readonly string[]) {
    const rows = await query<StateRow>(
      runner,
      `SELECT ${COLUMNS} FROM shipment_remote_tracking WHERE shipment_id = ANY($1::uuid[])`,
      [shipmentIds],
    );
    return new Map(rows.map((r) => [r.shipment_id, toState(r)]));
  },

  /**
   * Records that these credentials track these numbers. Another key or number than stored is
   * a new registration (the old one's state is dropped); `registered` only ever sets the mark.
   * Answers the registrations left behind that way (registered elsewhere and not stopped: the
   * shipment moved to other credentials, or its number changed), for stopping there.
   */
  async mark(
    runner: SqlRunner,
    marks: readonly RemoteTrackingMark[],
    now: Date,
  ): Promise<StopRequest[]> {
    if (marks.length === 0) return [];
    const rows = await query<
      Pick<StateRow, 'credentials_key' | 'tracking_number' | 'carrier_code'>
    >(
      runner,
      `WITH m AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS m(shipment_id uuid,
                  credentials_key text, tracking_number text, carrier_code text, registered boolean)),
         left_behind AS (
           SELECT t.credentials_key, t.tracking_number, t.carrier_code
             FROM shipment_remote_tracking t JOIN m ON m.shipment_id = t.shipment_id
            WHERE (t.credentials_key, t.tracking_number)
                    IS DISTINCT FROM (m.credentials_key, m.tracking_number)
              AND t.registered_at IS NOT NULL AND t.stopped_at IS NULL),
         upserted AS (
           INSERT INTO shipment_remote_tracking AS t (shipment_id, credentials_key,
                  tracking_number, carrier_code, registered_at)
           SELECT m.shipment_id, m.credentials_key, m.tracking_number, m.carrier_code,
                  CASE WHEN m.registered THEN $2::timestamptz END
             FROM m ${shipmentTrackingSql.join('s', 'm.shipment_id')}
           ON CONFLICT (shipment_id) DO UPDATE SET
             credentials_key = EXCLUDED.credentials_key,
             tracking_number = EXCLUDED.tracking_number,
             carrier_code = CASE
               WHEN (t.credentials_key, t.tracking_number)
                    IS DISTINCT FROM (EXCLUDED.credentials_key, EXCLUDED.tracking_number)
                 OR t.registered_at IS NULL
               THEN EXCLUDED.carrier_code ELSE t.carrier_code END,
             registered_at = CASE
               WHEN (t.credentials_key, t.tracking_number)
                    IS DISTINCT FROM (EXCLUDED.credentials_key, EXCLUDED.tracking_number)
               THEN EXCLUDED.registered_at
               ELSE coalesce(t.registered_at, EXCLUDED.registered_at) END,
             stopped_at = CASE
               WHEN (t.credentials_key, t.tracking_number)
                    IS DISTINCT FROM (EXCLUDED.credentials_key, EXCLUDED.tracking_number)
               THEN NULL ELSE t.stopped_at END,
             push_subscribed_at = CASE
               WHEN (t.credentials_key, t.tracking_number)
                    IS DISTINCT FROM (EXCLUDED.credentials_key, EXCLUDED.tracking_number)
               THEN NULL ELSE t.push_subscribed_at END,
             push_refused_at = CASE
               WHEN (t.credentials_key, t.tracking_number)
                    IS DISTINCT FROM (EXCLUDED.credentials_key, EXCLUDED.tracking_number)
               THEN NULL ELSE t.push_refused_at END)
         SELECT DISTINCT credentials_key, tracking_number, carrier_code FROM left_behind`,
      [
        JSON.stringify(
          marks.map((m) => ({
            shipment_id: m.shipmentId,
            credentials_key: m.credentialsKey,
            tracking_number: m.trackingNumber,
            carrier_code: m.carrierCode,
            registered: m.registered,
          })),
        ),
        now.toISOString(),
      ],
    );
    return rows.map(toStop);
  },

  /**
   * Forgets the remote tracking of shipments no remote provider tracks any more (their
   * credentials route them elsewhere, their number is gone); answers their registrations not
   * stopped yet, for stopping.
   */
  async release(runner: SqlRunner, shipmentIds: readonly string[]): Promise<StopRequest[]> {
    if (shipmentIds.length === 0) return [];
    const result = await query<StateRow>(
      runner,
      `DELETE FROM shipment_remote_tracking WHERE shipment_id = ANY($1::uuid[])
       RETURNING credentials_key, tracking_number, carrier_code, registered_at, stopped_at`,
      [shipmentIds],
    );
    return result.filter((r) => r.registered_at !== null && r.stopped_at === null).map(toStop);
  },

  /**
   * Ends every running registration at a credentials key whose account is going (credentials
   * deleted, or moved to another account): they count as not registered (registered again
   * wherever the shipment is routed next). Answers them, for stopping at the old account.
   */
  async detach(runner: SqlRunner, credentialsKey: string): Promise<StopRequest[]> {
    const result = await query<
      Pick<StateRow, 'credentials_key' | 'tracking_number' | 'carrier_code'>
    >(
      runner,
      `UPDATE shipment_remote_tracking
          SET registered_at = NULL, stopped_at = NULL, push_subscribed_at = NULL,
              push_refused_at = NULL
        WHERE credentials_key = $1 AND registered_at IS NOT NULL AND stopped_at IS NULL
       RETURNING credentials_key, tracking_number, carrier_code`,
      [credentialsKey],
    );
    const seen = new Set<string>();
    return result
      .filter((r) => !seen.has(r.tracking_number) && seen.add(r.tracking_number))
      .map(toStop);
  },

  /**
   * A team's shipments that have remote state and may still be tracked (a number, not final),
   * a page of `limit` after the id `after` (id order): what a change of the team's credentials
   * may move.
   */
  async ofTeam(
    runner: SqlRunner,
    teamId: string,
    page: { after: string | null; limit: number },
  ): Promise<Array<RemoteShipment & { state: RemoteTrackingState }>> {
    const rows = await query<
      StateRow & { team_id: string; number: string; origin_carrier: string | null }
    >(
      runner,
      `SELECT t.shipment_id, t.credentials_key, t.tracking_number, t.carrier_code,
                t.registered_at, t.stopped_at, t.last_push_at, t.push_subscribed_at,
                t.push_refused_at, $1::uuid AS team_id, s.tracking_number AS number,
                s.origin_carrier
           FROM shipment_remote_tracking t
           ${shipmentTrackingSql.join('s', 't.shipment_id')}
          WHERE ${shipmentTrackingSql.ofTeam('s', '$1')} AND ($2::uuid IS NULL OR t.shipment_id > $2::uuid)
            AND s.tracking_number IS NOT NULL AND btrim(s.tracking_number) <> ''
            AND (s.tracking_status IS NULL OR s.tracking_status <> ALL($4::text[]))
          ORDER BY t.shipment_id
          LIMIT $3`,
      [teamId, page.after, page.limit, FINAL_CODES],
    );
    return rows.map((r) => ({
      id: r.shipment_id,
      tracking_number: r.number,
      origin_carrier: r.origin_carrier,
      team_id: r.team_id,
      state: toState(r),
    }));
  },

  /** Forgets registrations the provider no longer knows (they are registered again). */
  async forgetRegistration(runner: SqlRunner, shipmentIds: readonly string[]): Promise<void> {
    if (shipmentIds.length === 0) return;
    await runner.query(
      `UPDATE shipment_remote_tracking SET registered_at = NULL WHERE shipment_id = ANY($1::uuid[])`,
      [shipmentIds],
    );
  },

  /**
   * Of these numbers, those some shipment still tracks at these credentials (registered there,
   * not stopped, under its current number, not final): they must not be stopped. As `key|number`.
   */
  async stillTracked(
    runner: SqlRunner,
    stops: readonly Pick<StopRequest, 'credentialsKey' | 'trackingNumber'>[],
  ): Promise<Set<string>> {
    if (stops.length === 0) return new Set();
    const rows = await query<Pick<StateRow, 'credentials_key' | 'tracking_number'>>(
      runner,
      `SELECT DISTINCT t.credentials_key, t.tracking_number
         FROM jsonb_to_recordset($1::jsonb) AS q(credentials_key text, tracking_number text)
         JOIN shipment_remote_tracking t
           ON t.credentials_key = q.credentials_key AND t.tracking_number = q.tracking_number
         ${shipmentTrackingSql.join('s', 't.shipment_id')}
        WHERE t.registered_at IS NOT NULL AND t.stopped_at IS NULL
          AND s.tracking_number = t.tracking_number
          AND (s.tracking_status IS NULL OR s.tracking_status <> ALL($2::text[]))`,
      [
        JSON.stringify(
          stops.map((s) => ({
            credentials_key: s.credentialsKey,
            tracking_number: s.trackingNumber,
          })),
        ),
        FINAL_CODES,
      ],
    );
    return new Set(rows.map((r) => stopKey(r.credentials_key, r.tracking_number)));
  },

  /** The provider stopped these numbers (or had nothing to stop): their registrations ended. */
  async markStopped(
    runner: SqlRunner,
    credentialsKey: string,
    numbers: readonly string[],
    now: Date,
  ): Promise<void> {
    if (numbers.length === 0) return;
    await runner.query(
      `UPDATE shipment_remote_tracking SET stopped_at = $3
        WHERE credentials_key = $1 AND tracking_number = ANY($2::text[])
          AND registered_at IS NOT NULL AND stopped_at IS NULL`,
      [credentialsKey, numbers, now],
    );
  },

  /**
   * Push subscriptions (after `mark`): the provider accepted these shipments' numbers now, or
   * refused them.
   */
  async markPushSubscriptions(
    runner: SqlRunner,
    outcome: { subscribed: readonly string[]; refused: readonly string[] },
    now: Date,
  ): Promise<void> {
    if (outcome.subscribed.length === 0 && outcome.refused.length === 0) return;
    await runner.query(
      `UPDATE shipment_remote_tracking
          SET push_subscribed_at = CASE WHEN shipment_id = ANY($1::uuid[]) THEN $3
                                        ELSE push_subscribed_at END,
              push_refused_at = CASE WHEN shipment_id = ANY($2::uuid[]) THEN $3
                                     ELSE push_refused_at END
        WHERE shipment_id = ANY($1::uuid[]) OR shipment_id = ANY($2::uuid[])`,
      [outcome.subscribed, outcome.refused, now],
    );
  },

  async markPushed(runner: SqlRunner, shipmentIds: readonly string[], now: Date): Promise<void> {
    if (shipmentIds.length === 0) return;
    await runner.query(
      `UPDATE shipment_remote_tracking SET last_push_at = $2 WHERE shipment_id = ANY($1::uuid[])`,
      [shipmentIds, now],
    );
  },

  /** Shipments these credentials track under these numbers (the push receiver's lookup). */
  async findByNumbers(
    runner: SqlRunner,
    credentialsKey: string,
    numbers: readonly string[],
  ): Promise<RemoteTrackingState[]> {
    if (numbers.length === 0) return [];
    const rows = await query<StateRow>(
      runner,
      `SELECT t.shipment_id, t.credentials_key, t.tracking_number, t.carrier_code,
              t.registered_at, t.stopped_at, t.last_push_at, t.push_subscribed_at,
              t.push_refused_at
         FROM shipment_remote_tracking t ${shipmentTrackingSql.join('s', 't.shipment_id')}
        WHERE t.credentials_key = $1 AND t.tracking_number = ANY($2::text[])
          AND s.tracking_number = t.tracking_number`,
      [credentialsKey, numbers],
    );
    return rows.map(toState);
  },
};

function toState(r: StateRow): RemoteTrackingState {
  return {
    shipmentId: r.shipment_id,
    credentialsKey: r.credentials_key,
    trackingNumber: r.tracking_number,
    carrierCode: r.carrier_code,
    registeredAt: r.registered_at,
    stoppedAt: r.stopped_at,
    lastPushAt: r.last_push_at,
    pushSubscribedAt: r.push_subscribed_at,
    pushRefusedAt: r.push_refused_at,
  };
}

function toStop(r: Pick<StateRow, 'credentials_key' | 'tracking_number' | 'carrier_code'>) {
  return {
    credentialsKey: r.credentials_key,
    trackingNumber: r.tracking_number,
    carrierCode: r.carrier_code,
  };
}

/** How stillTracked names a (credentials, number) pair. */
export function stopKey(credentialsKey: string, trackingNumber: string): string {
  return `${credentialsKey}|${trackingNumber}`;
}
