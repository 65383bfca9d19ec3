import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes the retention sweep (src/retention) finds old finished rows through, on the tables
 * that grow with traffic. Each rule's batch then reads only the rows it deletes, instead of
 * scanning the table every sweep:
 *
 * - event_delivery (outbox_event_id): a deleted outbox event's deliveries (the batch, the
 *   ON DELETE CASCADE check and closeFinished's NOT EXISTS; the two unique indexes are partial
 *   by target, so none of them could answer "the deliveries of this event").
 * - outbox_event (delivered_at), workflow_run (created_at), widget_log (created_at),
 *   notification (read_at) of read ones, access_token and oauth_refresh_token (expires_at):
 *   the rows past the cut-off. The existing indexes lead with the workspace, user or family.
 *
 * export, batch_job, user_token and oauth_authorization_code get none: one row per user
 * action, kept to a few days' worth by the sweep itself, so scanning them is cheap.
 *
 * Built CONCURRENTLY (outside a transaction) so writes continue on a live database; a
 * leftover of an interrupted run (possibly INVALID) is dropped first.
 */
const INDEXES: ReadonlyArray<[name: string, definition: string]> = [
  ['ix_event_delivery_outbox_event', 'event_delivery (outbox_event_id)'],
  ['ix_outbox_event_delivered', 'outbox_event (delivered_at) WHERE delivered_at IS NOT NULL'],
  ['ix_workflow_run_created', 'workflow_run (created_at)'],
  ['ix_widget_log_created', 'widget_log (created_at)'],
  ['ix_notification_read', 'notification (read_at) WHERE NOT unread'],
  ['ix_access_token_expires', 'access_token (expires_at)'],
  ['ix_oauth_refresh_token_expires', 'oauth_refresh_token (expires_at)'],
];

export class RetentionIndexes1763921000000 implements MigrationInterface {
  name = 'RetentionIndexes1763921000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const [name, definition] of INDEXES) {
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await q.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  }

  // Not CONCURRENTLY: TypeORM reverts inside a transaction whatever `transaction` says.
  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) {
      await q.query(`DROP INDEX IF EXISTS ${name}`);
    }
  }
}
