import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { execute, query, queryOne } from '../database/query';

const ADDRESS_COLUMNS = [
  'address_line1',
  'address_line2',
  'city',
  'company',
  'country',
  'country_iso2',
  'first_name',
  'last_name',
  'postcode',
  'state',
].map((c) => `address_${c}`);

/**
 * The shipment and shipment_order tables' SQL for a merge of duplicate shipments into a
 * target (ShipmentMerge): prepared statements on the merge's transaction. `duplicates` are
 * always in the order given: where several have a value, the first one's wins.
 */
@Injectable()
export class ShipmentMergeStore {
  /** The shipment's workspace if it is one of these workspaces', else null. */
  async workspaceIn(
    em: EntityManager,
    id: string,
    workspaceIds: readonly string[],
  ): Promise<string | null> {
    const row = await queryOne<{ workspace_id: string }>(
      em,
      'SELECT workspace_id FROM shipment WHERE id = $1 AND workspace_id = ANY($2::uuid[])',
      [id, workspaceIds],
    );
    return row?.workspace_id ?? null;
  }

  /**
   * The workspace's other shipments with the tracking number, compared as the shipment rules
   * store it (any case), oldest first.
   */
  async sameNumber(
    em: EntityManager,
    workspaceId: string,
    trackingNumber: string,
    exceptId: string,
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      em,
      `SELECT id FROM shipment WHERE workspace_id = $1 AND upper(tracking_number) = upper($2)
          AND id <> $3 ORDER BY created_at, id`,
      [workspaceId, trackingNumber, exceptId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The target takes the duplicates' order links, and their order numbers after its own
   * (each number once, in the order first seen).
   */
  async takeOrders(
    em: EntityManager,
    targetId: string,
    duplicates: readonly string[],
  ): Promise<void> {
    await execute(
      em,
      `INSERT INTO shipment_order (shipment_id, order_id)
       SELECT $1, order_id FROM shipment_order WHERE shipment_id = ANY($2::uuid[])
       ON CONFLICT DO NOTHING`,
      [targetId, duplicates],
    );
    await execute(
      em,
      `UPDATE shipment t
          SET order_numbers = (
                SELECT COALESCE(array_agg(n ORDER BY first), '{}') FROM (
                  SELECT n, min(pos) AS first FROM (
                    SELECT n, (o.ord * 100000 + u.i) AS pos
                      FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
                      JOIN shipment s ON s.id = o.id
                      CROSS JOIN LATERAL unnest(s.order_numbers) WITH ORDINALITY AS u(n, i)
                  ) x GROUP BY n) y)
        WHERE t.id = $1`,
      [targetId, [targetId, ...duplicates]],
    );
  }

  /**
   * The target's blanks filled from the first duplicate that has the value: e-mail, phone
   * number, shipment status, and the address, which goes whole (never mixed from several).
   */
  async fillBlanks(
    em: EntityManager,
    targetId: string,
    duplicates: readonly string[],
  ): Promise<void> {
    const first = (column: string) =>
      `(SELECT s.${column} FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
          JOIN shipment s ON s.id = o.id WHERE s.${column} IS NOT NULL ORDER BY o.ord LIMIT 1)`;
    await execute(
      em,
      `UPDATE shipment t
          SET email = COALESCE(t.email, ${first('email')}),
              phone_number = COALESCE(t.phone_number, ${first('phone_number')}),
              shipment_status_id = COALESCE(t.shipment_status_id, ${first('shipment_status_id')}),
              updated_at = now()
        WHERE t.id = $1`,
      [targetId, duplicates],
    );
    const anyAddress = (a: string) =>
      ADDRESS_COLUMNS.map((c) => `${a}.${c} IS NOT NULL`).join(' OR ');
    await execute(
      em,
      `UPDATE shipment t SET ${ADDRESS_COLUMNS.map((c) => `${c} = src.${c}`).join(', ')}
         FROM (SELECT s.* FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
                 JOIN shipment s ON s.id = o.id WHERE ${anyAddress('s')} ORDER BY o.ord LIMIT 1) src
        WHERE t.id = $1 AND NOT (${anyAddress('t')})`,
      [targetId, duplicates],
    );
  }

  /** The shipment's review as its `review` and `reviewTotalScore` show it. */
  async showReview(
    em: EntityManager,
    id: string,
    review: { id: string; totalScore: number },
  ): Promise<void> {
    await execute(em, 'UPDATE shipment SET review = $2, review_total_score = $3 WHERE id = $1', [
      id,
      `/reviews/${review.id}`,
      review.totalScore,
    ]);
  }
}
