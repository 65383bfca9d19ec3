import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Extensions the schema relies on: pgcrypto (gen_random_uuid, digests), pg_trgm (trigram
 * indexes for partial-match filters), citext (case-insensitive emails and codes).
 */
export class Extensions1763780000000 implements MigrationInterface {
  name = 'Extensions1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pgcrypto');
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS citext');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP EXTENSION IF EXISTS citext');
    await queryRunner.query('DROP EXTENSION IF EXISTS pg_trgm');
    await queryRunner.query('DROP EXTENSION IF EXISTS pgcrypto');
  }
}
