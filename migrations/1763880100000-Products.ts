import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Products and their variants, owned by a team (as in the reference). SKUs are unique per team
 * (products: when given) so feeds upsert by them; indexes lead with team_id for tenancy.
 */
export class Products1763880100000 implements MigrationInterface {
  name = 'Products1763880100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE product (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team (id) ON DELETE CASCADE,
        name text,
        sku text,
        origin_url text,
        image_url text,
        external_source_integration text,
        external_source_sync_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_product_team_sku ON product (team_id, sku) WHERE sku IS NOT NULL`,
    );
    await q.query(`CREATE INDEX ix_product_team_created ON product (team_id, created_at, id)`);
    await q.query(`CREATE INDEX ix_product_team_name ON product (team_id, name, id)`);
    await q.query(`
      CREATE TABLE product_variant (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team (id) ON DELETE CASCADE,
        product_id uuid NOT NULL REFERENCES product (id) ON DELETE CASCADE,
        sku text NOT NULL,
        image_url text,
        price numeric(14,4) DEFAULT 0,
        external_source_integration text,
        external_source_sync_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_product_variant_team_sku UNIQUE (team_id, sku)
      )`);
    await q.query(
      `CREATE INDEX ix_product_variant_team_created ON product_variant (team_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_product_variant_product ON product_variant (product_id, created_at, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE product_variant`);
    await q.query(`DROP TABLE product`);
  }
}
