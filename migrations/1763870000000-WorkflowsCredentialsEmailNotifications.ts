import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credentials (team-owned; secrets encrypted at rest), workflows (integrations and webhooks)
 * with their runs, e-mail notifications, workflow suggestions, and the per-target delivery
 * state of outbox events (one row per event and webhook workflow or e-mail notification).
 */
export class WorkflowsCredentialsEmailNotifications1763870000000 implements MigrationInterface {
  name = 'WorkflowsCredentialsEmailNotifications1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE credentials (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team(id) ON DELETE CASCADE,
        type text NOT NULL,
        tags text[] NOT NULL DEFAULT '{}',
        visible boolean NOT NULL DEFAULT true,
        parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
        secret_hints jsonb NOT NULL DEFAULT '{}'::jsonb,
        secrets_ciphertext text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_credentials_team_created ON credentials (team_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_credentials_team_updated ON credentials (team_id, updated_at, id)`,
    );
    await q.query(`CREATE INDEX ix_credentials_team_type ON credentials (team_id, type)`);

    await q.query(`
      CREATE TABLE workflow (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        title text,
        type text NOT NULL,
        credentials_id uuid REFERENCES credentials(id) ON DELETE SET NULL,
        notification_emails text[] NOT NULL DEFAULT '{}',
        enabled boolean NOT NULL DEFAULT true,
        period text NOT NULL,
        integration_id uuid REFERENCES workflow(id) ON DELETE SET NULL,
        first_time_setup_passed boolean NOT NULL DEFAULT false,
        first_time_setup_required boolean NOT NULL DEFAULT false,
        tags text[] NOT NULL DEFAULT '{}',
        integration_type text,
        passive boolean NOT NULL DEFAULT false,
        remote boolean NOT NULL DEFAULT false,
        last_run_date timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_workflow_workspace_created ON workflow (workspace_id, created_at, id)`,
    );
    await q.query(`CREATE INDEX ix_workflow_workspace_type ON workflow (workspace_id, type)`);
    await q.query(`CREATE INDEX ix_workflow_credentials ON workflow (credentials_id)`);
    await q.query(`CREATE INDEX ix_workflow_integration ON workflow (integration_id)`);

    await q.query(`
      CREATE TABLE workflow_run (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        workflow_id uuid NOT NULL REFERENCES workflow(id) ON DELETE CASCADE,
        status text NOT NULL,
        event_id uuid,
        event_type text,
        attempt int,
        response_code int,
        duration int,
        log text,
        errors text,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_workflow_run_workspace_created ON workflow_run (workspace_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_workflow_run_workflow_created ON workflow_run (workflow_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_workflow_run_running ON workflow_run (workflow_id) WHERE status = 'running'`,
    );

    await q.query(`
      CREATE TABLE workflow_suggestion (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        comment text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_workflow_suggestion_user ON workflow_suggestion (user_id, created_at)`,
    );

    await q.query(`
      CREATE TABLE email_notification (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        event text NOT NULL,
        system boolean NOT NULL DEFAULT false,
        condition text,
        schedule_delay text,
        enabled boolean NOT NULL DEFAULT true,
        title text,
        cc text[] NOT NULL DEFAULT '{}',
        bcc text[] NOT NULL DEFAULT '{}',
        subject text,
        body text,
        tracking_page_id uuid REFERENCES tracking_page(id) ON DELETE SET NULL,
        last_email_sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_email_notification_workspace_created ON email_notification (workspace_id, created_at, id)`,
    );
    // Delivery looks up the enabled notifications of one event in one workspace.
    await q.query(
      `CREATE INDEX ix_email_notification_workspace_event ON email_notification (workspace_id, event)`,
    );
    await q.query(
      `CREATE INDEX ix_email_notification_workspace_sent ON email_notification (workspace_id, last_email_sent_at)`,
    );
    await q.query(
      `CREATE INDEX ix_email_notification_tracking_page ON email_notification (tracking_page_id)`,
    );

    // Fan-out: an event is dispatched once (its targets get delivery rows), then each
    // delivery is attempted, retried and recorded on its own.
    await q.query(`ALTER TABLE outbox_event ADD COLUMN dispatched_at timestamptz`);
    await q.query(
      `CREATE INDEX ix_outbox_event_undispatched ON outbox_event (created_at, id) WHERE dispatched_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE event_delivery (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        outbox_event_id uuid NOT NULL REFERENCES outbox_event(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        workflow_id uuid REFERENCES workflow(id) ON DELETE CASCADE,
        email_notification_id uuid REFERENCES email_notification(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'held', 'sending', 'delivered', 'skipped', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ck_event_delivery_one_target
          CHECK ((workflow_id IS NULL) <> (email_notification_id IS NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_event_delivery_workflow ON event_delivery (outbox_event_id, workflow_id) WHERE workflow_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX uq_event_delivery_email ON event_delivery (outbox_event_id, email_notification_id) WHERE email_notification_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_event_delivery_due ON event_delivery (next_attempt_at) WHERE status IN ('pending', 'sending')`,
    );
    await q.query(
      `CREATE INDEX ix_event_delivery_workspace ON event_delivery (workspace_id, created_at)`,
    );
    await q.query(
      `CREATE INDEX ix_event_delivery_workflow ON event_delivery (workflow_id) WHERE workflow_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_event_delivery_email ON event_delivery (email_notification_id) WHERE email_notification_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE event_delivery`);
    await q.query(`DROP INDEX ix_outbox_event_undispatched`);
    await q.query(`ALTER TABLE outbox_event DROP COLUMN dispatched_at`);
    await q.query(`DROP TABLE email_notification`);
    await q.query(`DROP TABLE workflow_suggestion`);
    await q.query(`DROP TABLE workflow_run`);
    await q.query(`DROP TABLE workflow`);
    await q.query(`DROP TABLE credentials`);
  }
}
