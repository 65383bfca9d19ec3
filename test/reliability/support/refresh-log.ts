import type { DataSource } from 'typeorm';

/**
 * Test instrument (in the spec's own database only): a trigger that logs every tracking
 * refresh applied to a shipment (an UPDATE setting last_tracked_at, which only the tracking
 * writer does) with the lease it ran under (the next_check_at the claim had set). A shipment
 * refreshed twice under one lease shows up as two rows with the same (shipment, lease).
 */
export async function installRefreshLog(db: DataSource): Promise<void> {
  await db.query(`
    CREATE TABLE reliability_refresh_log (
      shipment_id uuid NOT NULL,
      lease timestamptz,
      logged_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
  await db.query(`
    CREATE FUNCTION reliability_log_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO reliability_refresh_log (shipment_id, lease) VALUES (NEW.id, OLD.next_check_at);
      RETURN NEW;
    END $$`);
  await db.query(`
    CREATE TRIGGER reliability_refresh_log AFTER UPDATE OF last_tracked_at ON shipment
      FOR EACH ROW EXECUTE FUNCTION reliability_log_refresh()`);
}

/** Refreshes per (shipment, lease) of a workspace's shipments. */
export async function refreshesPerLease(
  db: DataSource,
  workspaceId: string,
): Promise<Array<{ shipment_id: string; lease: Date | null; refreshes: number }>> {
  return db.query(
    `SELECT l.shipment_id, l.lease, count(*)::int AS refreshes
       FROM reliability_refresh_log l JOIN shipment s ON s.id = l.shipment_id
      WHERE s.workspace_id = $1
      GROUP BY 1, 2`,
    [workspaceId],
  );
}
