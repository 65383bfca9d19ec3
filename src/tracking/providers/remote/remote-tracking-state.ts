import type { SqlRunner } from '../../../events/sql-runner';

/** A row of shipment_remote_tracking: which credentials track a shipment's number. */
export interface RemoteTrackingState {
  shipmentId: string;
  credentialsKey: string;
  trackingNumber: string;
  registeredAt: Date | null;
  stoppedAt: Date | null;
  lastPushAt: Date | null;
}

export interface RemoteTrackingMark {
  shipmentId: string;
  credentialsKey: string;
  trackingNumber: string;
  /** The number is (now) registered with the provider. */
  registered: boolean;
}

interface StateRow {
  shipment_id: string;
  credentials_key: string;
  tracking_number: string;
  registered_at: Date | null;
  stopped_at: Date | null;
  last_push_at: Date | null;
}

const COLUMNS = `shipment_id, credentials_key, tracking_number, registered_at, stopped_at, last_push_at`;

/** The SQL of shipment_remote_tracking (registration, stop and push state per shipment). */
export const remoteTrackingState = {
  async load(runner: SqlRunner, shipmentIds: readonly string[]) {
    const rows: StateRow[] = await runner.query(
      `SELECT ${COLUMNS} FROM shipment_remote_tracking WHERE shipment_id = ANY($1::uuid[])`,
      [shipmentIds],
    );
    return new Map(rows.map((r) => [r.shipment_id, toState(r)]));
  },

  /**
   * Records that these credentials track these numbers. Another key or number than stored is
   * a new registration (the old one's state is dropped); `registered` only ever sets the mark.
   */
  async mark(runner: SqlRunner, marks: readonly RemoteTrackingMark[], now: Date): Promise<void> {
    if (marks.length === 0) return;
    await runner.query(
      `INSERT INTO shipment_remote_tracking AS t (shipment_id, credentials_key, tracking_number,
              registered_at)
       SELECT m.shipment_id, m.credentials_key, m.tracking_number,
              CASE WHEN m.registered THEN $2::timestamptz END
         FROM jsonb_to_recordset($1::jsonb) AS m(shipment_id uuid, credentials_key text,
              tracking_number text, registered boolean)
         JOIN shipment s ON s.id = m.shipment_id
       ON CONFLICT (shipment_id) DO UPDATE SET
         credentials_key = EXCLUDED.credentials_key, tracking_number = EXCLUDED.tracking_number,
         registered_at = CASE
           WHEN (t.credentials_key, t.tracking_number)
                IS DISTINCT FROM (EXCLUDED.credentials_key, EXCLUDED.tracking_number)
           THEN EXCLUDED.registered_at
           ELSE coalesce(t.registered_at, EXCLUDED.registered_at) END,
         stopped_at = CASE
           WHEN (t.credentials_key, t.tracking_number)
                IS DISTINCT FROM (EXCLUDED.credentials_key, EXCLUDED.tracking_number)
           THEN NULL ELSE t.stopped_at END`,
      [
        JSON.stringify(
          marks.map((m) => ({
            shipment_id: m.shipmentId,
            credentials_key: m.credentialsKey,
            tracking_number: m.trackingNumber,
            registered: m.registered,
          })),
        ),
        now.toISOString(),
      ],
    );
  },

  /** Forgets registrations the provider no longer knows (they are registered again). */
  async forgetRegistration(runner: SqlRunner, shipmentIds: readonly string[]): Promise<void> {
    if (shipmentIds.length === 0) return;
    await runner.query(
      `UPDATE shipment_remote_tracking SET registered_at = NULL WHERE shipment_id = ANY($1::uuid[])`,
      [shipmentIds],
    );
  },

  async markStopped(runner: SqlRunner, shipmentIds: readonly string[], now: Date): Promise<void> {
    if (shipmentIds.length === 0) return;
    await runner.query(
      `UPDATE shipment_remote_tracking SET stopped_at = $2 WHERE shipment_id = ANY($1::uuid[])`,
      [shipmentIds, now],
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
    const rows: StateRow[] = await runner.query(
      `SELECT t.shipment_id, t.credentials_key, t.tracking_number, t.registered_at, t.stopped_at,
              t.last_push_at
         FROM shipment_remote_tracking t JOIN shipment s ON s.id = t.shipment_id
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
    registeredAt: r.registered_at,
    stoppedAt: r.stopped_at,
    lastPushAt: r.last_push_at,
  };
}
