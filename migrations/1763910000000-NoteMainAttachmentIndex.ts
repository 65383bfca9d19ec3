import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleting a media row looks for the notes showing it as their main file (the FK's SET NULL,
 * and removeUnusedMedia's "still used?" check when an order's or shipment's notes go with it):
 * found through this index instead of a scan of every note.
 */
export class NoteMainAttachmentIndex1763910000000 implements MigrationInterface {
  name = 'NoteMainAttachmentIndex1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX ix_note_attachment_id ON note (attachment_id) WHERE attachment_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_note_attachment_id`);
  }
}
