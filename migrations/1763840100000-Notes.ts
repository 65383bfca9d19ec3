import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notes on records of a workspace (orders, shipments, ...), their attached files and their
 * reminders. `entity_id` is polymorphic (no FK): the service checks it on write.
 */
export class Notes1763840100000 implements MigrationInterface {
  name = 'Notes1763840100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE note (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        entity text NOT NULL,
        entity_id uuid NOT NULL,
        comment text,
        user_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        attachment_id uuid REFERENCES media(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_note_workspace_created ON note (workspace_id, created_at, id)`);
    // The notes of one record, newest first: the filter every client uses.
    await q.query(
      `CREATE INDEX ix_note_workspace_entity ON note (workspace_id, entity, entity_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_note_workspace_entity_id ON note (workspace_id, entity_id, created_at, id)`,
    );

    await q.query(`
      CREATE TABLE note_attachment (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        note_id uuid NOT NULL REFERENCES note(id) ON DELETE CASCADE,
        media_id uuid NOT NULL REFERENCES media(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_note_attachment_note_media ON note_attachment (note_id, media_id)`,
    );
    await q.query(
      `CREATE INDEX ix_note_attachment_workspace_created ON note_attachment (workspace_id, created_at, id)`,
    );
    await q.query(`CREATE INDEX ix_note_attachment_media ON note_attachment (media_id)`);

    await q.query(`
      CREATE TABLE note_reminder (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        note_id uuid NOT NULL REFERENCES note(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        remind_at timestamptz NOT NULL,
        comment text,
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_note_reminder_workspace_remind_at ON note_reminder (workspace_id, remind_at, id)`,
    );
    await q.query(`CREATE INDEX ix_note_reminder_note ON note_reminder (note_id, remind_at)`);
    await q.query(`CREATE INDEX ix_note_reminder_user ON note_reminder (user_id, remind_at)`);
    // Due reminders, for whoever delivers them.
    await q.query(
      `CREATE INDEX ix_note_reminder_due ON note_reminder (remind_at) WHERE sent_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE note_reminder, note_attachment, note`);
  }
}
