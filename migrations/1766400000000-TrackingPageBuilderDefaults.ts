import { MigrationInterface, QueryRunner } from 'typeorm';
import { builderWithDefaults } from '../src/tracking-pages/page-builder';

/**
 * The builders of existing tracking pages with every member the reference declares, at its
 * default where the page had none (src/tracking-pages/page-builder.ts), as a write stores them
 * from now on. A builder with a member of another type than declared stays as it was (a write
 * of it would be a 400; reading it is the page editor's business).
 */
export class TrackingPageBuilderDefaults1766400000000 implements MigrationInterface {
  name = 'TrackingPageBuilderDefaults1766400000000';

  async up(q: QueryRunner): Promise<void> {
    const rows: Array<{ id: string; builder: unknown }> = await q.query(
      `SELECT id, builder FROM tracking_page`,
    );
    for (const row of rows) {
      let filled: Record<string, unknown>;
      try {
        filled = builderWithDefaults(row.builder);
      } catch {
        continue;
      }
      await q.query(`UPDATE tracking_page SET builder = $2 WHERE id = $1`, [
        row.id,
        JSON.stringify(filled),
      ]);
    }
  }

  async down(): Promise<void> {
    // The defaults are data the pages may have changed since: nothing to take back.
  }
}
