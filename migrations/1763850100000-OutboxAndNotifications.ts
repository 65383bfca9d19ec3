import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox (events written in the same transaction as the change they announce,
 * delivered later by workers) and in-app notifications of users.
 */
export class OutboxAndNotifications1763850100000 implements MigrationInterface {
  name = 'OutboxAndNotifications1763850100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_event (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid REFERENCES workspace(id) ON DELETE CASCADE,
        type text NOT NULL,
        aggregate_type text NOT NULL,
        aggregate_id uuid NOT NULL,
        payload jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        attempts int NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz
      )`);
    // Workers read undelivered events in creation order; delivered ones leave the index.
    await q.query(
      `CREATE INDEX ix_outbox_event_pending ON outbox_event (created_at, id) WHERE delivered_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX ix_outbox_event_aggregate ON outbox_event (aggregate_id, created_at)`,
    );
    await q.query(`CREATE INDEX ix_outbox_event_workspace ON outbox_event (workspace_id)`);

    await q.query(`
      CREATE TABLE notification (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        tag text NOT NULL,
        message text NOT NULL,
        data jsonb NOT NULL DEFAULT '[]'::jsonb,
        unread boolean NOT NULL DEFAULT true,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX ix_notification_user_created ON notification (user_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_notification_user_unread ON notification (user_id, created_at) WHERE unread`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notification`);
    await q.query(`DROP TABLE outbox_event`);
  }
}
