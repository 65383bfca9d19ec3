import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook workflows in the reference's form (src/workflows/README.md):
 * - workflow.url / auth_type / username / password / concurrency and the entity, event and
 *   field filters of what is sent.
 * - outbox_event.ignored_workflow_id: the workflow a write asked not to be echoed to
 *   (`?ignoreWebhookId=`); no foreign key, the id is whatever the client sent.
 */
export class ReferenceWebhooks1764800001000 implements MigrationInterface {
  name = 'ReferenceWebhooks1764800001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE workflow
      ADD COLUMN url text,
      ADD COLUMN auth_type text CHECK (auth_type IN ('basic', 'bearer')),
      ADD COLUMN username text,
      ADD COLUMN password text,
      ADD COLUMN concurrency numeric NOT NULL DEFAULT 1,
      ADD COLUMN entity text,
      ADD COLUMN event text,
      ADD COLUMN field text`);
    await q.query(`ALTER TABLE outbox_event ADD COLUMN ignored_workflow_id uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_event DROP COLUMN ignored_workflow_id`);
    await q.query(`ALTER TABLE workflow DROP COLUMN url, DROP COLUMN auth_type,
      DROP COLUMN username, DROP COLUMN password, DROP COLUMN concurrency, DROP COLUMN entity,
      DROP COLUMN event, DROP COLUMN field`);
  }
}
