import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Public tracking page links (an unguessable hash per tracking page and shipment) and the
 * reviews customers leave through them.
 */
export class TrackingPageLinksReviews1763840300000 implements MigrationInterface {
  name = 'TrackingPageLinksReviews1763840300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tracking_page_link (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        tracking_page_id uuid NOT NULL REFERENCES tracking_page(id) ON DELETE CASCADE,
        shipment_id uuid NOT NULL REFERENCES shipment(id) ON DELETE CASCADE,
        hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_tracking_page_link_hash ON tracking_page_link (hash)`);
    // One link per page and shipment: generating again answers the same link.
    await q.query(
      `CREATE UNIQUE INDEX uq_tracking_page_link_page_shipment ON tracking_page_link (tracking_page_id, shipment_id)`,
    );
    await q.query(
      `CREATE INDEX ix_tracking_page_link_shipment ON tracking_page_link (shipment_id)`,
    );
    await q.query(
      `CREATE INDEX ix_tracking_page_link_workspace ON tracking_page_link (workspace_id, created_at)`,
    );

    await q.query(`
      CREATE TABLE review (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        shipment_id uuid REFERENCES shipment(id) ON DELETE SET NULL,
        tracking_page_id uuid REFERENCES tracking_page(id) ON DELETE SET NULL,
        carrier_score smallint CHECK (carrier_score BETWEEN 1 AND 5),
        product_score smallint CHECK (product_score BETWEEN 1 AND 5),
        packaging_score smallint CHECK (packaging_score BETWEEN 1 AND 5),
        total_score double precision NOT NULL CHECK (total_score BETWEEN 1 AND 5),
        comment text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A customer reviews a shipment once; a second review replaces the first.
    await q.query(
      `CREATE UNIQUE INDEX uq_review_shipment ON review (shipment_id) WHERE shipment_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_review_workspace_created ON review (workspace_id, created_at, id)`,
    );
    await q.query(`CREATE INDEX ix_review_workspace_total ON review (workspace_id, total_score)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE review, tracking_page_link`);
  }
}
